//go:build unix

package stargame

import "syscall"

// openNonblock opens a FIFO without waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
