package heap

import "golang.org/x/sys/cpu"

// haveScanSet reports whether scanSetAVX512 runs here: AVX-512 with its
// byte permutation (VBMI), and BMI1 and BMI2 (bit scans, PDEP).
var haveScanSet = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI && cpu.X86.HasBMI1 && cpu.X86.HasBMI2

// scanSetAVX512 looks at the splits i = 0..n−1 of nim-sum lo[i] ^ hi[i],
// every one below 512, and clears in set each value it has, in order,
// until left of them are cleared; first, when not nil, has 512 entries,
// and first[v] = base + i for the split i that cleared v. It returns how
// many it did not clear and how many splits it looked at (n when rest > 0).
//
//go:noescape
func scanSetAVX512(lo, hi *uint32, n int, set *[8]uint64, left int, first *uint32, base int) (rest, scanned int)

// scanSet2AVX512 is scanSetAVX512 on the splits lo[i] ^ hi0[i] and
// lo[i] ^ hi1[i] of two digits, in that order for each i in turn; scanned
// is i + 1 for the i where the last value was found (n when rest > 0).
//
//go:noescape
func scanSet2AVX512(lo, hi0, hi1 *uint32, n int, set *[8]uint64, left int) (rest, scanned int)
