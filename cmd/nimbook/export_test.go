package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/reports"
)

// The exports are written after the report, when Ctrl-C may come: it
// stops them in a word ("interrupted") and leaves no file; a refusal names
// the directory and the flag that raises the limit.
func TestWriteExportsStops(t *testing.T) {
	rep := &job.Report{Sections: []*job.SectionResult{{Title: "long", Results: job.Results{Values: make([]uint64, 100000)}}}}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&signalError{sig: syscall.SIGINT})
	dir := filepath.Join(t.TempDir(), "ex")
	err := writeExports(ctx, dir, rep, reports.Options{})
	if err == nil || err.Error() != "interrupted" || !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want interrupted", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files left by interrupted exports", len(ents))
	}

	err = writeExports(context.Background(), dir, rep, reports.Options{MaxMemory: 1 << 10})
	if err == nil || !strings.HasPrefix(err.Error(), "--export "+dir+": writing the exports needs") || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("refusal %q", err)
	}
}
