package cellgame

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The memo's file: a header line naming the format, the rule (its Go
// type) and the folding, then one record per entry: a byte saying its
// length in words (2: a compact entry with its value; 3: a large shape's
// key, then its value in two bytes), the words little-endian. A key may
// appear twice (files merged by processes that each held part of the
// other's entries); Load keeps the first.
const fileMagic = "nimbook cellgame memo 1"

func (s *Solver) header() string {
	return fmt.Sprintf("%s rule=%T fold=%v\n", fileMagic, s.rule, s.opts.Fold)
}

// record is one entry of a memo file.
type record struct {
	k       key
	compact bool
	v       uint16
}

// writeRecord writes one entry: a compact key with a value that fits in
// two words, anything else in three (a compact key's third word is 0).
func writeRecord(bw *bufio.Writer, r record) error {
	var buf [27]byte
	if r.compact && r.v < maxCompact {
		buf[0] = 2
		binary.LittleEndian.PutUint64(buf[1:], r.k[0])
		binary.LittleEndian.PutUint64(buf[9:], r.k[1]|uint64(r.v)<<valueShift)
		_, err := bw.Write(buf[:17])
		return err
	}
	buf[0] = 3
	for j, x := range r.k {
		binary.LittleEndian.PutUint64(buf[1+8*j:], x)
	}
	binary.LittleEndian.PutUint16(buf[25:], r.v)
	_, err := bw.Write(buf[:27])
	return err
}

// Save writes the memo to w, so that a later run of the same rule and
// folding continues from it (Load). It must not run beside Value.
//
// Given the writer of a Kept's save, it also merges: after its own
// entries it copies those of the memo file as other processes left it
// that this memo lacks, and takes them into this memo while it is under
// half its bound (the other half is this process's own work); a value
// that differs from this memo's is refused (the file is not this rule's).
func (s *Solver) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(s.header()); err != nil {
		return fmt.Errorf("cellgame: save: %w", err)
	}
	var written int64
	var buf [3*8 + 3]byte
	for i := range s.memo.shards {
		sh := &s.memo.shards[i]
		for _, e := range sh.table {
			if e == ([2]uint64{}) {
				continue
			}
			if uint16(e[1]>>valueShift) == maxCompact {
				continue // its value is large: written with the large entries
			}
			buf[0] = 2
			binary.LittleEndian.PutUint64(buf[1:], e[0])
			binary.LittleEndian.PutUint64(buf[9:], e[1])
			if _, err := bw.Write(buf[:17]); err != nil {
				return fmt.Errorf("cellgame: save: %w", err)
			}
			written++
		}
		for k, v := range sh.big {
			if err := writeRecord(bw, record{k, k[2] == 0, v}); err != nil {
				return fmt.Errorf("cellgame: save: %w", err)
			}
			written++
		}
	}
	if mw, ok := w.(*mergeWriter); ok {
		mw.merged = true
		mw.written = written
		if mw.old != nil {
			if err := s.merge(mw, bw); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cellgame: save: %w", err)
	}
	return nil
}

// merge copies the entries of mw.old this memo lacks to bw, taking them
// in while the memo is under half its bound.
func (s *Solver) merge(mw *mergeWriter, bw *bufio.Writer) error {
	if err := s.checkHeader(mw.old, "merge"); err != nil {
		return err
	}
	return readRecords(mw.old, "merge", func(n int, r record) error {
		if v, ok := s.memo.get(r.k, r.compact); ok {
			if v != r.v {
				return fmt.Errorf("cellgame: merge: entry %d has the value %d, this memo %d: the file's values are not this rule's", n, r.v, v)
			}
			return nil
		}
		if err := writeRecord(bw, r); err != nil {
			return fmt.Errorf("cellgame: save: %w", err)
		}
		mw.written++
		if s.memo.max > 0 && s.memo.n.Load() >= s.memo.max/2 {
			mw.skipped++
			return nil
		}
		added, err := s.memo.add(r.k, r.compact, r.v)
		switch {
		case errors.Is(err, ErrMemoFull):
			mw.skipped++
		case err != nil:
			return err
		case added:
			mw.taken++
			s.taken.Add(1)
		}
		return nil
	})
}

// checkHeader reads a memo file's header line and refuses one of another
// rule or folding.
func (s *Solver) checkHeader(br *bufio.Reader, what string) error {
	head, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("cellgame: %s: not a memo file: %w", what, err)
	}
	if head != s.header() {
		return fmt.Errorf("cellgame: %s: the file holds %q, this solver is %q", what, head[:len(head)-1], s.header()[:len(s.header())-1])
	}
	return nil
}

// readRecords calls f on each entry of a memo file after its header, with
// its number from 1 (the placeholders of compact keys whose values are
// large are skipped: their large entries follow).
func readRecords(br *bufio.Reader, what string, f func(n int, r record) error) error {
	var buf [26]byte
	for n := 1; ; n++ {
		kind, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("cellgame: %s: %w", what, err)
		}
		var r record
		switch kind {
		case 2:
			if _, err := io.ReadFull(br, buf[:16]); err != nil {
				return fmt.Errorf("cellgame: %s: entry %d: %w", what, n, err)
			}
			lo, hi := binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:])
			r = record{key{lo, hi &^ (0x7F << valueShift), 0}, true, uint16(hi >> valueShift)}
			if r.v == maxCompact {
				continue
			}
		case 3:
			if _, err := io.ReadFull(br, buf[:26]); err != nil {
				return fmt.Errorf("cellgame: %s: entry %d: %w", what, n, err)
			}
			for j := range r.k {
				r.k[j] = binary.LittleEndian.Uint64(buf[8*j:])
			}
			// a compact key with a large value: put remakes its
			// placeholder from this entry
			r.compact, r.v = r.k[2] == 0, binary.LittleEndian.Uint16(buf[24:])
		default:
			return fmt.Errorf("cellgame: %s: entry %d: unknown kind %d: the file is damaged", what, n, kind)
		}
		if err := f(n, r); err != nil {
			return err
		}
	}
}

// Load adds the entries of a memo Save wrote, refusing one of another
// rule or folding; it stops, as Value does, when the memo is full.
//
// Given the reader of Keep, it takes what fits instead and counts the
// entries left out, so that a memo file that other processes grew past
// this one's bound still serves.
func (s *Solver) Load(r io.Reader) error {
	kr, lenient := r.(*keptReader)
	br := bufio.NewReader(r)
	if err := s.checkHeader(br, "load"); err != nil {
		return err
	}
	if lenient {
		kr.used = true
	}
	return readRecords(br, "load", func(_ int, rec record) error {
		added, err := s.memo.add(rec.k, rec.compact, rec.v)
		if !lenient {
			return err
		}
		switch {
		case errors.Is(err, ErrMemoFull):
			kr.skipped++
		case err != nil:
			return err
		case added:
			kr.taken++
		}
		return nil
	})
}
