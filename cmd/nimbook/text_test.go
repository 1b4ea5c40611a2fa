package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
)

func TestCleanText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Nim (1,3,5,7) ⊕ é", "Nim (1,3,5,7) ⊕ é"},
		{"lines and tabs", "a\tb\nc", "a\tb\nc"},
		{"CRLF", "a\r\nb", "a\r\nb"},
		{"lone CR", "safe\rfake", `safe\x0dfake`},
		{"title escape", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"CSI as C1", "x\u009b2J", `x\u009b2J`},
		{"raw C1 byte", "x\x9b2J", `x\x9b2J`},
		{"bidi override", "abc\u202edef", `abc\u202edef`},
		{"DEL", "a\x7f", `a\x7f`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in); got != tt.want {
				t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
			// The stream gives the same, however the text is cut.
			for cut := 0; cut <= len(tt.in); cut++ {
				var b bytes.Buffer
				w := cleanAlways(&b)
				w.Write([]byte(tt.in[:cut]))
				w.Write([]byte(tt.in[cut:]))
				w.Flush()
				if b.String() != tt.want {
					t.Errorf("cut at %d: %q, want %q", cut, b.String(), tt.want)
				}
			}
		})
	}
}

func TestExitStatusOf(t *testing.T) {
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(&signalError{sig: syscall.SIGINT})
	terminated, cancel2 := context.WithCancelCause(context.Background())
	cancel2(&signalError{sig: syscall.SIGTERM})
	bg := context.Background()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		code int
		msg  string
	}{
		{"success", bg, nil, 0, ""},
		{"bad input", bg, errors.New("job.yaml:3: bad"), 1, "job.yaml:3: bad"},
		{"bad usage", bg, usagef("no command"), 2, "no command (run 'nimbook help' for usage)"},
		{"Ctrl-C", interrupted, context.Canceled, 130, "interrupted"},
		{"SIGTERM", terminated, errors.New("whatever the work said"), 143, "terminated"},
		{"Ctrl-C in a game", interrupted, nil, 130, ""},
		{"escapes in a message", bg, errors.New("x.yaml: \x1b[2J"), 1, `x.yaml: \x1b[2J`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, msg := exitStatus(tt.ctx, tt.err)
			if code != tt.code || msg != tt.msg {
				t.Errorf("got %d %q, want %d %q", code, msg, tt.code, tt.msg)
			}
		})
	}
}

// A report past the memory part of the spool comes out whole, and a
// rendering that fails prints nothing.
func TestWriteStdout(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", spoolLimit/16+1000)
	var out bytes.Buffer
	err := writeStdout(context.Background(), &out, func(w io.Writer) error {
		for i := 0; i < len(big); i += 4096 {
			if _, err := io.WriteString(w, big[i:min(i+4096, len(big))]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || out.String() != big {
		t.Errorf("err %v, %d bytes out of %d", err, out.Len(), len(big))
	}
	out.Reset()
	boom := errors.New("boom")
	err = writeStdout(context.Background(), &out, func(w io.Writer) error {
		io.WriteString(w, "half a report")
		return boom
	})
	if !errors.Is(err, boom) || out.Len() != 0 {
		t.Errorf("err %v, printed %q", err, out.String())
	}
}

func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "x.yaml", "--bogus"}, "unknown flag --bogus"},
		{[]string{"run", "x.yaml", "-o"}, "-o needs a value"},
		{[]string{"run", "x.yaml", "--max-positions", "x"}, `--max-positions "x": not a whole number`},
		{[]string{"run", "x.yaml", "--max-positions", "99999999999999999999"}, "too large"},
		{[]string{"eval", "--json=maybe", "1"}, "write true or false"},
	}
	for _, tt := range tests {
		_, _, err := runArgs(t, tt.args...)
		var u *usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want a usage error with %q", tt.args, err, tt.want)
		}
	}
}

func TestVersion(t *testing.T) {
	out, _, err := runArgs(t, "version")
	if err != nil || !strings.HasPrefix(out, "nimbook ") || !strings.Contains(out, "go1.") {
		t.Errorf("version: %q %v", out, err)
	}
}

// Whatever a file holds, the cleaned text has no control character but
// tab, line feed and a carriage return before one, and the stream cleans
// as cleanText does.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"\x1b]0;t\x07", "a\r\nb\r", "\xc2\x9b2J", "\u202e", "é\xc2", "ok"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		got := cleanText(s)
		for i, r := range got {
			if unsafeRune(r) && !(r == '\r' && strings.HasPrefix(got[i:], "\r\n")) {
				t.Fatalf("cleanText(%q) = %q keeps %U", s, got, r)
			}
		}
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		var b bytes.Buffer
		w := cleanAlways(&b)
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Flush()
		if b.String() != got {
			t.Fatalf("stream of %q cut at %d: %q, want %q", s, cut, b.String(), got)
		}
	})
}
