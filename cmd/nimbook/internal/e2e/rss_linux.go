package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// WatchRSS follows the peak resident memory (VmHWM) of process pid while it
// runs, and stop returns it in bytes. The child's own rusage (Maxrss) is no
// use here: Linux counts in it the parent's peak from before the exec, and
// the test process may well be larger than the child it measures.
func WatchRSS(pid int) (stop func() int64) {
	var peak int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		path := fmt.Sprintf("/proc/%d/status", pid)
		for {
			if v := readHWM(path); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// readHWM reads VmHWM from a /proc status file, 0 when it is gone.
func readHWM(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
