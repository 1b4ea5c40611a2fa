package play

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
)

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
				s, err := l.r.ReadString('\n')
				if err != nil && errors.Is(err, io.EOF) && s != "" {
					err = nil
				}
				l.res <- lineResult{strings.TrimRight(s, "\r\n"), err}
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
			io.WriteString(l.prompts, r.line+"\n")
		}
		return r.line, r.err
	case <-l.ctx.Done():
		return "", l.ctx.Err()
	}
}
