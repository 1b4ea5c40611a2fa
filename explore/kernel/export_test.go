package kernel

// Clock is the kernel's clock, for the tests of package kernel_test.
type Clock = clock

// SetClock makes k read the time and wait through c; call it before Run.
func SetClock(k *Kernel, c Clock) {
	k.clock = c
	k.inbox.clock = c
}

// AbortGrace is how long after a failure a request is aborted by its date.
const AbortGrace = abortGrace
