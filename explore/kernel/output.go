package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nimbook/nimbook/explore/budget"
)

// A cell that prints in a loop must not become one iopub message per print
// (200 000 prints were 200 000 messages), nor one message of hundreds of
// megabytes: stream text is gathered and sent every streamFlushEvery or
// every streamFlushSize bytes, and a cell's output stops, with a note, at
// Options.MaxOutput.
const (
	streamFlushEvery = 50 * time.Millisecond
	streamFlushSize  = 64 << 10
	// DefaultMaxOutput is the most output (stream text and display data) a
	// cell shows unless Options.MaxOutput says otherwise.
	DefaultMaxOutput = 8 << 20
	// maxErrorText bounds the error value and each traceback line.
	maxErrorText = 64 << 10
)

// output is the Output of one cell.
type output struct {
	k          *Kernel
	req        *message
	ctx        context.Context
	silent     bool
	allowStdin bool
	limit      int64

	mu        sync.Mutex
	name      string // stream of buf
	buf       []byte
	timer     *time.Timer
	flushes   int   // flushes so far: a timer set before the last one has nothing to do
	used      int64 // bytes shown so far, buf included
	truncated bool
	closed    bool
}

func newOutput(k *Kernel, req *message, ctx context.Context, r executeRequest) *output {
	return &output{k: k, req: req, ctx: ctx, silent: r.silent, allowStdin: r.allowStdin, limit: k.opts.MaxOutput}
}

func (o *output) Stream(name, text string) {
	if o.silent || text == "" {
		return
	}
	name = streamName(name)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.truncated {
		return
	}
	if name != o.name && len(o.buf) > 0 {
		o.flushLocked() // keep stdout and stderr in the order written
	}
	o.name = name
	if left := o.limit - o.used; int64(len(text)) > left {
		o.buf = append(o.buf, cutUTF8(text, int(left))...)
		o.used = o.limit
		o.truncateLocked("")
		return
	}
	o.buf = append(o.buf, text...)
	o.used += int64(len(text))
	if len(o.buf) >= streamFlushSize {
		o.flushLocked()
	} else if o.timer == nil {
		n := o.flushes
		o.timer = time.AfterFunc(streamFlushEvery, func() { o.flushLater(n) })
	}
}

// flushLater is the timer's flush, unless a flush came first.
func (o *output) flushLater(flushes int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.closed && o.flushes == flushes {
		o.flushLocked()
	}
}

// flushLocked sends the gathered stream text.
func (o *output) flushLocked() {
	o.flushes++
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if len(o.buf) == 0 {
		return
	}
	o.k.publish(o.req, "stream", map[string]string{"name": o.name, "text": string(o.buf)})
	o.buf = o.buf[:0]
}

// truncateLocked ends the cell's output with a note, once.
func (o *output) truncateLocked(what string) {
	o.flushLocked()
	if o.truncated {
		return
	}
	o.truncated = true
	note := fmt.Sprintf("\n[output truncated: a cell shows at most %s of output", budget.FormatSize(o.limit))
	if what != "" {
		note += "; " + what + " was not shown"
	}
	o.k.publish(o.req, "stream", map[string]string{"name": "stderr", "text": note + "]\n"})
}

// bundle checks a display's size against what is left and returns its data
// as JSON, or nil when it does not fit (the output is then truncated).
func (o *output) bundleLocked(d *Display, what string) (data, metadata json.RawMessage) {
	data, err := json.Marshal(d.Data)
	if err == nil {
		metadata, err = json.Marshal(orMap(d.Metadata))
	}
	if err != nil {
		o.k.log.Printf("%s: %v", what, err)
		return nil, nil
	}
	size := int64(len(data) + len(metadata))
	if size > o.limit-o.used {
		o.truncateLocked(fmt.Sprintf("%s of %s", what, budget.FormatSize(size)))
		return nil, nil
	}
	o.used += size
	return data, metadata
}

func (o *output) Display(d *Display) {
	if o.silent || d == nil || len(d.Data) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.truncated {
		return
	}
	o.flushLocked()
	data, md := o.bundleLocked(d, "a display")
	if data == nil {
		return
	}
	o.k.publish(o.req, "display_data", map[string]any{"data": data, "metadata": md, "transient": map[string]any{}})
}

// close sends what is gathered, then the cell's result if any; later calls
// of Stream and Display are ignored (the cell is over).
func (o *output) close(result *Display, count int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	if !o.silent && !o.truncated && result != nil && len(result.Data) > 0 {
		if data, md := o.bundleLocked(result, "the result"); data != nil {
			o.k.publish(o.req, "execute_result", map[string]any{"execution_count": count, "data": data, "metadata": md})
		}
	}
	o.closed = true
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// shorten bounds a text shown in an error.
func shorten(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	return cutUTF8(s, maxErrorText) + " [… truncated]"
}

// errNoStdin is returned by Input when the frontend does not take input.
var errNoStdin = errors.New("kernel: input is not available: the frontend does not accept input (allow_stdin is false)")

func (o *output) Input(prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", errNoStdin
	}
	o.mu.Lock()
	o.flushLocked() // the prompt comes after what the cell printed
	o.mu.Unlock()
	// Forget replies to earlier, abandoned requests.
	for len(o.k.inputCh) > 0 {
		<-o.k.inputCh
	}
	req := o.k.sendTo(o.k.stdin, o.req.identities, o.req, "input_request", map[string]any{"prompt": shorten(prompt), "password": password})
	if req == nil {
		return "", errors.New("kernel: input: could not send the request")
	}
	for {
		select {
		case <-o.ctx.Done():
			return "", fmt.Errorf("kernel: input: %w", o.ctx.Err())
		case m := <-o.k.inputCh:
			var p header
			if json.Unmarshal(m.parent, &p) == nil && p.MsgID != "" && p.MsgID != req.header.MsgID {
				continue // a reply to another request
			}
			if tl := m.tooLarge; tl != nil {
				return "", fmt.Errorf("kernel: input: the reply is %s, more than the kernel's limit of %s per message", budget.FormatSize(tl.size), budget.FormatSize(tl.limit))
			}
			c, err := parseContent(m)
			if err != nil {
				return "", err
			}
			return c.str("value", false)
		}
	}
}
