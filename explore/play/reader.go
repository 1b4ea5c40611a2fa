package play

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxLine is the longest line, in bytes, that ReadLine returns: a move
// fits in far less. A longer line is read to its end without being kept,
// and ReadLine returns a *LongLineError for it.
const MaxLine = 4096

// MaxEcho is how many characters of a line the echo and the messages that
// quote a line show; the rest is cut, with "…".
const MaxEcho = 200

// LongLineError is a line longer than MaxLine: not a move, and not kept.
type LongLineError struct {
	Size int // its length in bytes, line ending excluded
}

func (e *LongLineError) Error() string {
	return fmt.Sprintf("a line of %d bytes is longer than any move (at most %d bytes); it is ignored", e.Size, MaxLine)
}

// Excerpt returns s cut to n characters, with "…" when it was longer: what
// a message may quote of what was typed.
func Excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	if i >= len(s) {
		return s
	}
	return s[:i] + "…"
}

// Lines reads lines from an io.Reader, writing each prompt to a writer first.
// It makes no terminal assumption: a pipe works as well as a keyboard, and
// the end of the input is io.EOF. A read blocked on the input does not hold
// the game: when ctx is done (Ctrl-C), ReadLine returns ctx's error at once.
type Lines struct {
	ctx     context.Context
	r       *bufio.Reader
	prompts io.Writer
	req     chan struct{}
	res     chan lineResult
	started bool
	// Echo writes each line read after its prompt, so that a transcript
	// of piped input reads like a terminal session.
	Echo bool
	err  error // the error that stopped the reading goroutine
}

type lineResult struct {
	line string
	long int // the length of a line over MaxLine (line then holds its start)
	err  error
}

// NewLines returns a LineReader on r that shows its prompts on prompts (nil:
// nowhere).
func NewLines(ctx context.Context, r io.Reader, prompts io.Writer) *Lines {
	if prompts == nil {
		prompts = io.Discard
	}
	return &Lines{ctx: ctx, r: bufio.NewReader(r), prompts: prompts,
		req: make(chan struct{}), res: make(chan lineResult, 1)}
}

// ReadLine shows prompt and returns the next line without its line ending.
func (l *Lines) ReadLine(prompt string) (string, error) {
	if err := l.ctx.Err(); err != nil {
		return "", err
	}
	if l.err != nil {
		return "", l.err
	}
	if _, err := io.WriteString(l.prompts, prompt); err != nil {
		return "", err
	}
	if !l.started {
		// One goroutine reads a line when asked, so that nothing is read
		// ahead of the game.
		l.started = true
		go func() {
			for range l.req {
				s, long, err := readLine(l.r)
				if err != nil && errors.Is(err, io.EOF) && (s != "" || long > 0) {
					err = nil
				}
				l.res <- lineResult{s, long, err}
				if err != nil {
					return
				}
			}
		}()
	}
	select {
	case l.req <- struct{}{}:
	case <-l.ctx.Done():
		return "", l.ctx.Err()
	}
	select {
	case r := <-l.res:
		l.err = r.err // the goroutine stops on an error: later reads fail the same way
		switch {
		case r.err != nil && prompt != "":
			io.WriteString(l.prompts, "\n") // end the prompt's line
		case r.err == nil && l.Echo:
			echo := Excerpt(r.line, MaxEcho)
			if r.long > 0 && !strings.HasSuffix(echo, "…") {
				echo += "…"
			}
			io.WriteString(l.prompts, echo+"\n")
		}
		if r.long > 0 {
			return "", &LongLineError{Size: r.long}
		}
		return r.line, r.err
	case <-l.ctx.Done():
		return "", l.ctx.Err()
	}
}

// readLine reads one line without its line ending. A line over MaxLine
// bytes is read to its end but only its start is kept (MaxLine bytes at
// most), and long is its length: a huge line costs no memory.
func readLine(r *bufio.Reader) (line string, long int, err error) {
	var b []byte
	size := 0
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if room := MaxLine + 2 - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil {
			size-- // the newline
			if size > 0 && len(b) >= 2 && b[len(b)-2] == '\r' && size <= MaxLine+1 {
				size--
			}
		}
		if size > MaxLine {
			return strings.ToValidUTF8(string(b[:min(len(b), MaxLine)]), ""), size, err
		}
		return strings.TrimRight(string(b), "\r\n"), 0, err
	}
}
