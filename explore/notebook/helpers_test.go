package notebook

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nimbook/nimbook/explore/kernel"
)

// recorder is an Output that keeps what a cell writes.
type recorder struct {
	mu       sync.Mutex
	stdout   strings.Builder
	displays []*kernel.Display
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stdout.WriteString(text)
}

func (r *recorder) Display(d *kernel.Display) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.displays = append(r.displays, d)
}

func (r *recorder) Input(string, bool) (string, error) { return "", nil }

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run executes cells in order and returns the last cell's text result
// (text/plain), its stdout and its error.
func run(t testing.TB, s *Session, cells ...string) (string, string, error) {
	t.Helper()
	var text, out string
	var err error
	for _, c := range cells {
		rec := &recorder{}
		var d *kernel.Display
		d, err = s.Execute(context.Background(), c, rec)
		text = ""
		if d != nil {
			text, _ = d.Data["text/plain"].(string)
		}
		out = rec.stdout.String()
	}
	return text, out, err
}
