package cellgame

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

// Kept is a solver's memo kept in a file between runs (a job's memo:
// key): loaded when it is made, so that a run continues where the last
// stopped, and saved atomically by Save, which a family calls after each
// game solved and when a run stops (a limit, Ctrl-C). Solves hold Use
// while they run: a save must not run beside them.
//
// Several processes may share the file (the tasks of a Slurm array, two
// runs at once): a save takes an exclusive lock on FILE.lock beside it
// (flock), reads what the file holds now, and writes the union of that
// and its own memo (the entries are exact values: any union is right),
// through a temporary file renamed into place. Loading takes no lock: a
// rename replaces the file whole, so a reader sees the old file or the
// new one. A process killed while it saves leaves the last file whole
// (its temporary file is removed by the next save), and the kernel
// releases its lock. The lock is a flock: it holds between the processes
// of one machine, and on NFS where the mount forwards it to the server
// (Linux does, as a lock of the whole file, unless the mount says
// local_lock=flock or all); where locks stay on each machine, tasks on
// different machines must each have a memo file of their own.
type Kept struct {
	file    string
	save    func(io.Writer) error
	entries func() int64
	mu      sync.RWMutex
	saved   int64 // entries at the last load or save

	// seen is the file as this process last loaded or wrote it; whole
	// says the memo holds all of seen's entries, so that a save finding
	// the file unchanged writes the memo alone without reading it.
	seen  fs.FileInfo
	whole bool
	stats KeptStats
}

// KeptStats are the counters of a memo file in one process.
type KeptStats struct {
	File string
	// Loaded is the entries taken from the file when it was first loaded.
	Loaded int64
	// Taken is the entries other processes wrote to the file that saves
	// took into the memo since.
	Taken int64
	// Skipped is the entries of the file left out of the memo: no room
	// under its bound (they stay in the file). A save takes others'
	// entries only while the memo is under half its bound.
	Skipped int64
	// Solved is the entries this process computed itself and saved.
	Solved int64
	// Saves is the number of times the file was written.
	Saves int64
	// Entries is the entries in the file at the last load or save.
	Entries int64
}

// The counters of every memo file of this process, by path, summed over
// its solvers (a pool builds a new one after Release).
var (
	filesMu sync.Mutex
	files   = map[string]*KeptStats{}
)

// MemoFiles returns the counters of the memo files this process used, in
// the order of their paths.
func MemoFiles() []KeptStats {
	filesMu.Lock()
	defer filesMu.Unlock()
	var out []KeptStats
	for _, st := range files {
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b KeptStats) int {
		if a.File < b.File {
			return -1
		}
		if a.File > b.File {
			return 1
		}
		return 0
	})
	return out
}

// String says the counters on one line, for a run's summary.
func (st KeptStats) String() string {
	s := fmt.Sprintf("memo file %s: %d entries", st.File, st.Entries)
	if st.Loaded > 0 {
		s += fmt.Sprintf(", %d loaded at the start", st.Loaded)
	}
	s += fmt.Sprintf(", %d solved here, %d taken from other processes at %d saves", st.Solved, st.Taken, st.Saves)
	if st.Skipped > 0 {
		s += fmt.Sprintf(", %d left in the file (no room under the memory limit)", st.Skipped)
	}
	return s
}

// count adds d to the kept's counters and to the process's.
func (k *Kept) count(d KeptStats) {
	filesMu.Lock()
	defer filesMu.Unlock()
	sum := files[k.file]
	if sum == nil {
		sum = &KeptStats{File: k.file}
		files[k.file] = sum
	}
	for _, st := range []*KeptStats{&k.stats, sum} {
		st.Loaded += d.Loaded
		st.Taken += d.Taken
		st.Skipped += d.Skipped
		st.Solved += d.Solved
		st.Saves += d.Saves
		st.Entries = d.Entries
	}
}

// Stats returns the counters of the file in this kept.
func (k *Kept) Stats() KeptStats {
	filesMu.Lock()
	defer filesMu.Unlock()
	return k.stats
}

// keptReader is the file Keep gives load: a Solver's Load takes what
// fits in its memo and counts what it leaves out.
type keptReader struct {
	io.Reader
	used           bool
	taken, skipped int64
}

// mergeWriter is the writer a save gives save: a Solver's Save writes its
// memo, then the entries of old (the file as it is now, nil when this
// process wrote it last and holds all of it) that the memo lacks.
type mergeWriter struct {
	io.Writer
	old                     *bufio.Reader
	merged                  bool
	written, taken, skipped int64
}

// Keep loads the memo file at path (a file that does not exist yet is an
// empty memo) into a solver through its load, and returns what saves it
// through save; entries counts the solver's memo, so that a memo that did
// not grow is not written again. load and save are a Solver's Load and
// Save (or functions that pass their reader and writer to them as they
// are): that is how a save merges the file. Its errors name the file: a
// memo of another rule or folding is refused.
func Keep(path string, load func(io.Reader) error, save func(io.Writer) error, entries func() int64) (*Kept, error) {
	k := &Kept{file: path, save: save, entries: entries, whole: true, stats: KeptStats{File: path}}
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		k.count(KeptStats{})
	case err != nil:
		return nil, fmt.Errorf("cellgame: memo file %s: %w", path, err)
	default:
		defer f.Close()
		if k.seen, err = f.Stat(); err != nil {
			return nil, fmt.Errorf("cellgame: memo file %s: %w", path, err)
		}
		kr := &keptReader{Reader: f}
		if err := load(kr); err != nil {
			return nil, fmt.Errorf("cellgame: memo file %s: %w; give this game a memo file of its own", path, err)
		}
		k.whole = kr.skipped == 0
		k.count(KeptStats{Loaded: kr.taken, Skipped: kr.skipped, Entries: kr.taken + kr.skipped})
	}
	k.saved = entries()
	return k, nil
}

// Use marks a solve in progress until the function it returns is called.
func (k *Kept) Use() (done func()) {
	k.mu.RLock()
	return k.mu.RUnlock
}

// sameVersion says whether a and b are the same file unchanged: the same
// inode (a save renames a new one into place), size and time.
func sameVersion(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// Save writes the memo to its file, atomically (a run stopped while it
// writes leaves the last file whole), when it grew since the last load or
// save, merged with what other processes wrote there meanwhile (see
// Kept). It waits for the solves in progress, and for the saves of other
// processes.
func (k *Kept) Save() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	own := k.entries() - k.saved
	if own == 0 {
		return nil
	}
	unlock, err := lockFile(k.file + ".lock")
	if err != nil {
		return fmt.Errorf("cellgame: memo file %s: lock: %w", k.file, err)
	}
	defer unlock()
	mw := &mergeWriter{}
	f, err := os.Open(k.file)
	switch {
	case errors.Is(err, fs.ErrNotExist): // the first save: the memo alone
	case err != nil:
		return fmt.Errorf("cellgame: memo file %s: %w", k.file, err)
	default:
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return fmt.Errorf("cellgame: memo file %s: %w", k.file, err)
		}
		if !k.whole || !sameVersion(fi, k.seen) {
			mw.old = bufio.NewReaderSize(f, 1<<16)
		}
	}
	// written even when the run was cancelled: that is when it matters
	err = atomicfile.Write(context.Background(), k.file, atomicfile.Options{}, func(w io.Writer) error {
		mw.Writer = w
		if err := k.save(mw); err != nil {
			return err
		}
		if mw.old != nil && !mw.merged {
			return errors.New("cellgame: the memo's save does not merge the file (want a Solver's Save)")
		}
		return nil
	})
	if err != nil {
		// what was taken in is no work of this process's, for the next
		// save's count
		k.saved += mw.taken
		return fmt.Errorf("cellgame: memo file %s: %w", k.file, err)
	}
	if k.seen, err = os.Stat(k.file); err != nil {
		return fmt.Errorf("cellgame: memo file %s: %w", k.file, err)
	}
	if mw.old != nil {
		k.whole = mw.skipped == 0
	}
	k.saved = k.entries()
	k.count(KeptStats{Solved: own, Taken: mw.taken, Skipped: mw.skipped, Saves: 1, Entries: mw.written})
	return nil
}
