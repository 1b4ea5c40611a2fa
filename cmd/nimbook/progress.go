package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/play"
)

// progressDelay is how long work runs before its progress line appears:
// quick commands print nothing.
const progressDelay = time.Second

// progressEvery is how often the line is redrawn.
const progressEvery = 200 * time.Millisecond

// isTerminalWriter says whether w is a terminal (not a pipe, a file or
// /dev/null).
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startProgress returns a context carrying a budget.Progress and, when
// stderr is a terminal and quiet is false, draws its line there
// (done/total, rate, ETA) once the work has run for progressDelay. stop
// erases the line; call it before printing anything else to stderr.
func startProgress(ctx context.Context, stderr io.Writer, quiet bool) (context.Context, *budget.Progress, func()) {
	p := budget.NewProgress()
	ctx = budget.WithProgress(ctx, p)
	l := newProgressLine(stderr, p, quiet)
	l.resume()
	return ctx, p, l.stop
}

// progressLine draws a Progress on a terminal while work runs: resume
// says work starts, pause that it stops (the line is erased before pause
// returns, so that what is printed next is not mixed with it). The line
// appears once the work has run for progressDelay. On anything but a
// terminal, or quiet, it does nothing.
type progressLine struct {
	w     io.Writer // nil: draw nothing
	p     *budget.Progress
	width int

	mu      sync.Mutex
	busy    bool      // work runs: the line may be drawn
	since   time.Time // when it started
	drawn   bool
	waiting bool // for input: what is written then does not resume work
	closed  bool

	wake    chan struct{} // resume tells the drawing goroutine
	quit    chan struct{}
	wg      sync.WaitGroup
	stopped sync.Once
}

func newProgressLine(stderr io.Writer, p *budget.Progress, quiet bool) *progressLine {
	l := &progressLine{p: p, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	if quiet || !isTerminalWriter(stderr) {
		return l
	}
	l.w, l.width = stderr, 100
	if f, ok := stderr.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 10 {
			l.width = w - 1
		}
	}
	l.wg.Add(1)
	go l.run()
	return l
}

// resume says work starts now.
func (l *progressLine) resume() {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	if !l.busy {
		l.busy, l.since = true, time.Now()
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// pause says work stops, and erases the line.
func (l *progressLine) pause() {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.busy = false
	l.erase()
}

// stop erases the line for good.
func (l *progressLine) stop() {
	l.stopped.Do(func() {
		l.pause()
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		close(l.quit)
		l.wg.Wait()
	})
}

// A computation that prints as it goes (a game) or waits for input shows
// the line only between: writer and readLines pause the line for each
// write and for each wait for a line, and start a new stage of work after.

// writer returns w, writing through which pauses the line: what the work
// prints is never mixed with it. A new stage of work starts after the
// write (the clock and the counts start again), unless input is awaited.
func (l *progressLine) writer(w io.Writer) io.Writer {
	if l.w == nil {
		return w
	}
	return &pausingWriter{l: l, w: w}
}

type pausingWriter struct {
	l *progressLine
	w io.Writer
}

func (pw *pausingWriter) Write(b []byte) (int, error) {
	pw.l.pause()
	n, err := pw.w.Write(b)
	pw.l.mu.Lock()
	waiting := pw.l.waiting
	pw.l.mu.Unlock()
	if !waiting {
		pw.l.restart()
	}
	return n, err
}

// restart starts a new stage of work: the progress counts nothing yet.
func (l *progressLine) restart() {
	l.p.Start("", 0)
	l.resume()
}

// readLines returns in, the waits of which for a line pause the line.
func (l *progressLine) readLines(in play.LineReader) play.LineReader {
	if l.w == nil {
		return in
	}
	return &pausingLines{l: l, in: in}
}

type pausingLines struct {
	l  *progressLine
	in play.LineReader
}

func (pl *pausingLines) ReadLine(prompt string) (string, error) {
	l := pl.l
	l.mu.Lock()
	l.waiting, l.busy = true, false
	l.erase()
	l.mu.Unlock()
	line, err := pl.in.ReadLine(prompt)
	l.mu.Lock()
	l.waiting = false
	l.mu.Unlock()
	l.restart()
	return line, err
}

func (l *progressLine) erase() {
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.drawn = false
	}
}

// run redraws the line every progressEvery while work runs, and sleeps
// while none does.
func (l *progressLine) run() {
	defer l.wg.Done()
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		l.mu.Lock()
		busy := l.busy
		l.mu.Unlock()
		if !busy {
			select {
			case <-l.quit:
				return
			case <-l.wake:
			}
			continue
		}
		select {
		case <-l.quit:
			return
		case <-l.wake:
		case <-t.C:
			l.mu.Lock()
			if l.busy && time.Since(l.since) >= progressDelay {
				l.draw(time.Since(l.since))
			}
			l.mu.Unlock()
		}
	}
}

// draw writes the line over the previous one; l.mu is held.
func (l *progressLine) draw(elapsed time.Duration) {
	s := l.p.Snapshot()
	text := s.String()
	if s.Label == "" && s.Done == 0 && s.Total == 0 {
		// Work that counts nothing still says it runs.
		secs := int(elapsed.Seconds())
		text = fmt.Sprintf("working, %d:%02d", secs/60, secs%60)
	}
	line := []rune(sanitizeLine(text))
	if len(line) > l.width {
		line = line[:l.width]
	}
	fmt.Fprintf(l.w, "\r%s\x1b[K", string(line))
	l.drawn = true
}

// sanitizeLine keeps a status line on one line: line breaks and tabs
// become spaces, and every other control character or terminal escape a
// label could carry (titles come from user files) is shown escaped, as
// cleanText shows it.
func sanitizeLine(s string) string {
	return cleanText(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
}
