//go:build !unix

package starrule

// openNonblock: no FIFOs to wait for here.
const openNonblock = 0
