package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The files the process read as inputs (Protect): no Write, Stage or
// Check of the process replaces them, whatever its Options say. A
// notebook's cells name the rule files they load only as they run, after
// the command checked its outputs; an export directory may hold a link
// to one of them.
var (
	protectMu sync.Mutex
	protected = map[string]int{}
)

// Protect adds paths to the files no write of the process may replace,
// until release is called (a long-lived process, the kernel, releases
// what a session read when the session ends; a command need not).
func Protect(paths ...string) (release func()) {
	var keys []string
	protectMu.Lock()
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		protected[p]++
		keys = append(keys, p)
	}
	protectMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			protectMu.Lock()
			for _, k := range keys {
				if protected[k]--; protected[k] <= 0 {
					delete(protected, k)
				}
			}
			protectMu.Unlock()
		})
	}
}

// protectedInputs lists the files Protect holds.
func protectedInputs() []string {
	protectMu.Lock()
	defer protectMu.Unlock()
	out := make([]string, 0, len(protected))
	for p := range protected {
		out = append(out, p)
	}
	return out
}

// started is when the process started, about: a temporary file of ours
// older than it was left by a process that died (SIGKILL) during a write.
var started = time.Now()

// staleAge is how long before this process started a temporary file was
// last written for it to be taken for a killed write's: a write under way
// in another process writes its file as it renders.
const staleAge = time.Minute

// removeStale removes the temporary files an earlier process left next to
// target when it was killed while writing it: only files of Write's
// naming (.BASE.tmpNNN, createTemp's), regular, and last modified more
// than staleAge before this process started, so that the write of another
// process running now is left alone.
func removeStale(target string) {
	dir, base := filepath.Dir(target), filepath.Base(target)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp"
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !tmpDigits.MatchString(name[len(prefix):]) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.ModTime().Before(started.Add(-staleAge)) {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}

var tmpDigits = regexp.MustCompile(`^[0-9]{1,10}$`)
