//go:build !unix

package stargame

// openNonblock: no FIFOs to wait for here.
const openNonblock = 0
