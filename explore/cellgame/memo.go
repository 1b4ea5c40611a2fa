package cellgame

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/nimbook/nimbook/explore/budget"
)

// A shape's key: its cells in its bounding box, row after row (row r of a
// w-wide box from bit r·w), its height and width. Shapes of at most
// compactCells cells are kept in two words with their value: cells in
// bits 0–111, h−1 in 112–114, w−1 in 115–120, the value in 121–127 (a
// value of 127 or more is kept beside, in the shard's map). Larger shapes
// take a map entry of three words.
const (
	compactCells = 112
	valueShift   = 121 - 64
	maxCompact   = 127
)

type key [3]uint64

// EntryBytes estimates the bytes of one memo entry: 16 bytes in an
// open-addressing table kept between 3/8 and 3/4 full.
const EntryBytes = 32

type shard struct {
	sync.Mutex
	table [][2]uint64
	n     int
	big   map[key]uint16 // large shapes, and values past maxCompact
	_     [24]byte
}

// memo is the shared table of component values, in shards each with its
// lock.
type memo struct {
	shards [256]shard
	n      atomic.Int64
	max    int64
}

func hashKey(k key) uint64 {
	h := (k[0]*0x9E3779B97F4A7C15 ^ k[1]*0xC2B2AE3D27D4EB4F ^ k[2]*0x165667B19E3779F9)
	return h ^ h>>29
}

func (m *memo) get(k key, compact bool) (uint16, bool) {
	h := hashKey(k)
	sh := &m.shards[h>>56]
	sh.Lock()
	if compact && len(sh.table) > 0 {
		mask := uint64(len(sh.table) - 1)
		for i := h & mask; ; i = (i + 1) & mask {
			e := sh.table[i]
			if e[0] == k[0] && e[1]&^(0x7F<<valueShift) == k[1] {
				v := uint16(e[1] >> valueShift)
				if v == maxCompact {
					v = sh.big[k]
				}
				sh.Unlock()
				return v, true
			}
			if e[0] == 0 && e[1] == 0 {
				sh.Unlock()
				return 0, false
			}
		}
	}
	v, ok := sh.big[k]
	sh.Unlock()
	return v, ok
}

func (m *memo) put(k key, compact bool, v uint16) error {
	_, err := m.add(k, compact, v)
	return err
}

// add is put that says whether the entry is new (false: the key was
// there already, another worker or process solved it too).
func (m *memo) add(k key, compact bool, v uint16) (bool, error) {
	if m.max > 0 && m.n.Load() >= m.max {
		return false, fmt.Errorf("%w: %d entries (about %s), the memory limit's share", ErrMemoFull, m.max, budget.FormatSize(m.max*EntryBytes))
	}
	h := hashKey(k)
	sh := &m.shards[h>>56]
	sh.Lock()
	defer sh.Unlock()
	if !compact || v >= maxCompact {
		if sh.big == nil {
			sh.big = make(map[key]uint16)
		}
		if _, ok := sh.big[k]; ok {
			return false, nil
		}
		sh.big[k] = v
		if !compact {
			m.n.Add(1)
			return true, nil
		}
		v = maxCompact
	}
	if 4*(sh.n+1) > 3*len(sh.table) {
		sh.grow()
	}
	mask := uint64(len(sh.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &sh.table[i]
		if e[0] == k[0] && e[1]&^(0x7F<<valueShift) == k[1] {
			return false, nil // another worker solved it too
		}
		if e[0] == 0 && e[1] == 0 {
			*e = [2]uint64{k[0], k[1] | uint64(v)<<valueShift}
			sh.n++
			m.n.Add(1)
			return true, nil
		}
	}
}

func (sh *shard) grow() {
	old := sh.table
	n := 2 * len(old)
	if n == 0 {
		n = 64
	}
	sh.table = make([][2]uint64, n)
	mask := uint64(n - 1)
	for _, e := range old {
		if e[0] == 0 && e[1] == 0 {
			continue
		}
		k := key{e[0], e[1] &^ (0x7F << valueShift), 0}
		for i := hashKey(k) & mask; ; i = (i + 1) & mask {
			if sh.table[i] == ([2]uint64{}) {
				sh.table[i] = e
				break
			}
		}
	}
}
