package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/nimbook/nimbook/explore/controlchar"
)

// Text from users' files (titles, cells, what a Starlark file prints, moves
// typed) reaches the terminal in messages, prompts and reports. A control
// character there would be obeyed: an escape sequence can move the cursor,
// recolour or rewrite what was printed, or set the window title. What the
// command prints to a terminal shows such characters as visible escapes
// instead: ESC as \x1b, CSI as \u009b. Line feeds and tabs pass; a carriage
// return passes only before a line feed.

// unsafeRune reports whether r must not reach a terminal raw: the one
// rule of package controlchar.
func unsafeRune(r rune) bool { return controlchar.Is(r) }

func escapeRune(b *strings.Builder, r rune) {
	if r < 0x80 {
		fmt.Fprintf(b, `\x%02x`, r)
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}

// cleanText makes s safe to print on a terminal: see unsafeRune.
func cleanText(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
			b.WriteRune(r)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteRune(r)
		case unsafeRune(r):
			escapeRune(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// forTerminal returns w itself, or when w is a terminal a writer that
// cleans what passes through it (see cleanText); Flush it at the end.
func forTerminal(w io.Writer) flushWriter {
	if isTerminalWriter(w) {
		return &cleanWriter{w: w}
	}
	return plainWriter{w}
}

type flushWriter interface {
	io.Writer
	Flush() error
}

type plainWriter struct{ io.Writer }

func (plainWriter) Flush() error { return nil }

// cleanWriter applies cleanText to a stream. A character cut between two
// writes, or a carriage return at the end of one, waits for the next.
type cleanWriter struct {
	w       io.Writer
	pending []byte
}

func (c *cleanWriter) Write(p []byte) (int, error) {
	buf := append(c.pending, p...)
	keep := 0
	// Hold back an incomplete UTF-8 sequence or a final carriage return.
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				keep = len(buf) - i
			}
			break
		}
	}
	if keep == 0 && len(buf) > 0 && buf[len(buf)-1] == '\r' {
		keep = 1
	}
	out := cleanText(string(buf[:len(buf)-keep]))
	c.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	if _, err := io.WriteString(c.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what was held back.
func (c *cleanWriter) Flush() error {
	if len(c.pending) == 0 {
		return nil
	}
	s := cleanText(string(c.pending))
	c.pending = nil
	_, err := io.WriteString(c.w, s)
	return err
}

// cleanAlways is a cleanWriter whatever w is: for what is a transcript
// rather than a document (a game played), cleaned on a pipe too.
func cleanAlways(w io.Writer) *cleanWriter { return &cleanWriter{w: w} }
