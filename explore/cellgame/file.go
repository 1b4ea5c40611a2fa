package cellgame

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

// The memo's file: a header line naming the format, the rule (its Go
// type) and the folding, then one record per entry: a byte saying its
// length in words (2: a compact entry with its value; 3: a large shape's
// key, then its value in two bytes), the words little-endian.
const fileMagic = "nimbook cellgame memo 1"

func (s *Solver) header() string {
	return fmt.Sprintf("%s rule=%T fold=%v\n", fileMagic, s.rule, s.opts.Fold)
}

// Save writes the memo to w, so that a later run of the same rule and
// folding continues from it (Load). It must not run beside Value.
func (s *Solver) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(s.header()); err != nil {
		return fmt.Errorf("cellgame: save: %w", err)
	}
	var buf [3*8 + 3]byte
	for i := range s.memo.shards {
		sh := &s.memo.shards[i]
		for _, e := range sh.table {
			if e == ([2]uint64{}) {
				continue
			}
			buf[0] = 2
			binary.LittleEndian.PutUint64(buf[1:], e[0])
			binary.LittleEndian.PutUint64(buf[9:], e[1])
			if _, err := bw.Write(buf[:17]); err != nil {
				return fmt.Errorf("cellgame: save: %w", err)
			}
		}
		for k, v := range sh.big {
			buf[0] = 3
			for j, x := range k {
				binary.LittleEndian.PutUint64(buf[1+8*j:], x)
			}
			binary.LittleEndian.PutUint16(buf[25:], v)
			if _, err := bw.Write(buf[:27]); err != nil {
				return fmt.Errorf("cellgame: save: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cellgame: save: %w", err)
	}
	return nil
}

// Load adds the entries of a memo Save wrote, refusing one of another
// rule or folding; it stops, as Value does, when the memo is full.
func (s *Solver) Load(r io.Reader) error {
	br := bufio.NewReader(r)
	head, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("cellgame: load: not a memo file: %w", err)
	}
	if head != s.header() {
		return fmt.Errorf("cellgame: load: the file holds %q, this solver is %q", head[:len(head)-1], s.header()[:len(s.header())-1])
	}
	var buf [27]byte
	for n := 1; ; n++ {
		kind, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("cellgame: load: %w", err)
		}
		switch kind {
		case 2:
			if _, err := io.ReadFull(br, buf[:16]); err != nil {
				return fmt.Errorf("cellgame: load: entry %d: %w", n, err)
			}
			lo, hi := binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:])
			k := key{lo, hi &^ (0x7F << valueShift), 0}
			v := uint16(hi >> valueShift)
			if v == maxCompact {
				continue // its value is in the large entries, which follow in its shard
			}
			if err := s.memo.put(k, true, v); err != nil {
				return err
			}
		case 3:
			if _, err := io.ReadFull(br, buf[:26]); err != nil {
				return fmt.Errorf("cellgame: load: entry %d: %w", n, err)
			}
			var k key
			for j := range k {
				k[j] = binary.LittleEndian.Uint64(buf[8*j:])
			}
			// a compact key with a large value is stored as both: put
			// remakes both from the large entry
			compact := k[2] == 0
			if err := s.memo.put(k, compact, binary.LittleEndian.Uint16(buf[24:])); err != nil {
				return err
			}
		default:
			return fmt.Errorf("cellgame: load: entry %d: unknown kind %d", n, kind)
		}
	}
}

// Kept is a solver's memo kept in a file between runs (a job's memo:
// key): loaded when it is made, so that a run continues where the last
// stopped, and saved atomically by Save, which a family calls after each
// game solved and when a run stops (a limit, Ctrl-C). Solves hold Use
// while they run: a save must not run beside them.
type Kept struct {
	file    string
	save    func(io.Writer) error
	entries func() int64
	mu      sync.RWMutex
	saved   int64 // entries at the last load or save
}

// Keep loads the memo file at path (a file that does not exist yet is an
// empty memo) into a solver through its load, and returns what saves it
// through save; entries counts the solver's memo, so that a memo that did
// not grow is not written again. Its errors name the file: a memo of
// another rule or folding is refused.
func Keep(path string, load func(io.Reader) error, save func(io.Writer) error, entries func() int64) (*Kept, error) {
	k := &Kept{file: path, save: save, entries: entries}
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("cellgame: memo file %s: %w", path, err)
	default:
		defer f.Close()
		if err := load(f); err != nil {
			return nil, fmt.Errorf("cellgame: memo file %s: %w; give this game a memo file of its own", path, err)
		}
	}
	k.saved = entries()
	return k, nil
}

// Use marks a solve in progress until the function it returns is called.
func (k *Kept) Use() (done func()) {
	k.mu.RLock()
	return k.mu.RUnlock
}

// Save writes the memo to its file, atomically (a run stopped while it
// writes leaves the last file whole), when it grew since the last load or
// save. It waits for the solves in progress.
func (k *Kept) Save() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := k.entries()
	if n == k.saved {
		return nil
	}
	// written even when the run was cancelled: that is when it matters
	if err := atomicfile.Write(context.Background(), k.file, atomicfile.Options{}, k.save); err != nil {
		return fmt.Errorf("cellgame: memo file %s: %w", k.file, err)
	}
	k.saved = n
	return nil
}
