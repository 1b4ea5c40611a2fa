package strip

import (
	"syscall"
	"unsafe"
)

// hugePages asks for transparent huge pages under a large table before
// its first touch: its lookups land anywhere in it, and 2 MiB pages spare
// most of their TLB misses. Only the 2 MiB-aligned middle is advised; an
// error (no THP) changes nothing but speed.
func hugePages(slots [][2]uint64) {
	const huge = 2 << 20
	n := uintptr(len(slots)) * 16
	if n < 2*huge {
		return
	}
	start := uintptr(unsafe.Pointer(&slots[0]))
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + n) &^ (huge - 1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&slots[0]), lo-start)), hi-lo)
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
}
