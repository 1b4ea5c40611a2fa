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
	if quiet || !isTerminalWriter(stderr) {
		return ctx, p, func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		drawn := 0
		width := 100
		if f, ok := stderr.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 10 {
				width = w - 1
			}
		}
		start := time.NewTimer(progressDelay)
		defer start.Stop()
		select {
		case <-done:
			return
		case <-start.C:
		}
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			line := []rune(sanitizeLine(p.Snapshot().String()))
			if len(line) > width {
				line = line[:width]
			}
			fmt.Fprintf(stderr, "\r%s\x1b[K", string(line))
			drawn = len(line)
			select {
			case <-done:
				if drawn > 0 {
					fmt.Fprint(stderr, "\r\x1b[K")
				}
				return
			case <-t.C:
			}
		}
	}()
	var once sync.Once
	return ctx, p, func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
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
