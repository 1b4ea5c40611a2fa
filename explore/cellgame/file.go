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
