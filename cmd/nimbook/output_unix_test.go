//go:build unix

package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO stands for /dev/null or /dev/stdout: -o must write into it, not
// replace it with a regular file.
func TestRunWritesIntoFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- data
	}()
	if _, _, err := runArgs(t, "run", example("nimbers.yaml"), "-o", fifo, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if data := <-got; !json.Valid(data) {
		t.Errorf("FIFO received %d bytes, not JSON", len(data))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

func TestRunWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	os.WriteFile(target, nil, 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if _, _, err := runArgs(t, "run", example("nimbers.yaml"), "-o", link, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if data, _ := os.ReadFile(target); !json.Valid(data) {
		t.Errorf("target not written")
	}
}
