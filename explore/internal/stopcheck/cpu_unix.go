//go:build unix

package stopcheck

import (
	"syscall"
	"time"
)

// ProcessCPU is the processor time this process has used so far, user and
// system, on every thread; ok is false when the system does not say.
// Unlike the time on a clock, it does not grow while the machine runs
// other work: the processor time spent after a cancel measures the work
// done after it, however loaded the machine.
func ProcessCPU() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
