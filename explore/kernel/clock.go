package kernel

import "time"

// clock tells the time and waits. The abort of the requests queued behind
// a failing cell reads it (when a request arrived, the wait for the end of
// a burst, the grace after a failure), so that tests drive that time
// themselves instead of racing the machine's clock; the kernel runs on
// systemClock.
type clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

// systemClock is the machine's clock.
type systemClock struct{}

func (systemClock) Now() time.Time        { return time.Now() }
func (systemClock) Sleep(d time.Duration) { time.Sleep(d) }
