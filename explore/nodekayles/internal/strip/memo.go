package strip

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// An entry is two words: the key's first word (rows 0 and 1, never 0 as
// row 0 of a canonical form has a cell), and row 2 with the value at bit
// 32 and a flag at bit 63 that says the entry is written. A writer stores
// the second word first, so a reader that sees the first sees the second.
const (
	valueShift = 32
	ready      = 1 << 63
	rowMask    = 1<<32 - 1
	shardBits  = 4
	minSlots   = 256
)

type table struct{ slots [][2]uint64 }

type shard struct {
	mu sync.Mutex // writers
	t  atomic.Pointer[table]
	n  int
	_  [40]byte
}

// memo is the table of components wider than smallCols, in shards that
// each grow on their own under their writers' lock; readers take no lock.
type memo struct {
	shards  [1 << shardBits]shard
	n       atomic.Int64
	bytes   atomic.Int64
	garbage atomic.Int64 // bytes of tables replaced since memory was last returned
	max     int64
}

func hash(k key) uint64 {
	h := k[0]*0x9E3779B97F4A7C15 ^ (k[1]+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	h ^= h >> 32
	h *= 0xD6E8FEB86659FD93
	return h ^ h>>32
}

// slot is the first slot of h in a table of n slots: the high bits of
// h·n (the shard is the low bits).
func slot(h uint64, n int) int {
	hi := (h >> 32) * uint64(n) >> 32
	return int(hi)
}

func (m *memo) get(k key, h uint64) (uint8, bool) {
	t := m.shards[h&(1<<shardBits-1)].t.Load()
	if t == nil {
		return 0, false
	}
	n := len(t.slots)
	for i := slot(h, n); ; {
		e := &t.slots[i]
		k0 := atomic.LoadUint64(&e[0])
		if k0 == 0 {
			return 0, false
		}
		if k0 == k[0] {
			e1 := atomic.LoadUint64(&e[1])
			if e1&rowMask == k[1] {
				return uint8(e1 >> valueShift), true
			}
		}
		if i++; i == n {
			i = 0
		}
	}
}

// touch reads the first slot of each hash, ahead of the lookups, and
// returns a sum of what it read (for the caller to keep, so that the
// reads are not dropped).
func (m *memo) touch(hs []uint64) uint64 {
	var sum uint64
	for _, h := range hs {
		if t := m.shards[h&(1<<shardBits-1)].t.Load(); t != nil {
			sum += atomic.LoadUint64(&t.slots[slot(h, len(t.slots))][0])
		}
	}
	return sum
}

func (m *memo) put(k key, h uint64, v uint8) error {
	sh := &m.shards[h&(1<<shardBits-1)]
	sh.mu.Lock()
	t := sh.t.Load()
	if t == nil || 16*(sh.n+1) > 13*len(t.slots) {
		var err error
		if t, err = m.grow(sh, t); err != nil {
			sh.mu.Unlock()
			return err
		}
	}
	n := len(t.slots)
	for i := slot(h, n); ; {
		e := &t.slots[i]
		k0 := atomic.LoadUint64(&e[0])
		if k0 == 0 {
			atomic.StoreUint64(&e[1], k[1]|uint64(v)<<valueShift|ready)
			atomic.StoreUint64(&e[0], k[0])
			sh.n++
			m.n.Add(1)
			break
		}
		if k0 == k[0] && atomic.LoadUint64(&e[1])&rowMask == k[1] {
			break // another worker solved it too
		}
		if i++; i == n {
			i = 0
		}
	}
	sh.mu.Unlock()
	m.release()
	return nil
}

// grow replaces the shard's table by one a quarter larger (the entries
// rehashed), counting the bytes against the bound first.
func (m *memo) grow(sh *shard, old *table) (*table, error) {
	n := minSlots
	if old != nil {
		n = (len(old.slots)*5/4 + 63) &^ 63
	}
	var oldBytes int64
	if old != nil {
		oldBytes = int64(16 * len(old.slots))
	}
	add := int64(16 * n)
	if m.max > 0 && m.bytes.Load()+add > m.max {
		return nil, fmt.Errorf("%w: %d entries in %d bytes, a growth of %d bytes would pass the bound of %d", ErrFull, m.n.Load(), m.bytes.Load(), add, m.max)
	}
	t := &table{slots: make([][2]uint64, n)}
	hugePages(t.slots)
	if old != nil {
		for _, e := range old.slots {
			if e[0] == 0 {
				continue
			}
			h := hash(key{e[0], e[1] & rowMask})
			for i := slot(h, n); ; {
				if t.slots[i][0] == 0 {
					t.slots[i] = e
					break
				}
				if i++; i == n {
					i = 0
				}
			}
		}
	}
	sh.t.Store(t)
	m.bytes.Add(add - oldBytes)
	m.garbage.Add(oldBytes)
	return t, nil
}

// release hands the replaced tables back to the system once they are an
// eighth of the memo, so that the process holds the memo and little more
// (the tables hold no pointers, so a collection costs little).
func (m *memo) release() {
	g := m.garbage.Load()
	if g < 64<<20 || g < m.bytes.Load()/8 {
		return
	}
	if m.garbage.CompareAndSwap(g, 0) {
		debug.FreeOSMemory()
	}
}
