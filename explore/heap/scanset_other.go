//go:build !amd64

package heap

// haveScanSet is false off amd64: scanSet takes scanMissing's way.
var haveScanSet = false

func scanSetAVX512(lo, hi *uint32, n int, set *[8]uint64, left int, first *uint32, base int) (rest, scanned int) {
	panic("heap: scanSetAVX512 off amd64")
}

func scanSet2AVX512(lo, hi0, hi1 *uint32, n int, set *[8]uint64, left int) (rest, scanned int) {
	panic("heap: scanSet2AVX512 off amd64")
}
