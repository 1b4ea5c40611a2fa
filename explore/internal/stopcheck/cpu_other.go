//go:build !unix

package stopcheck

import "time"

// ProcessCPU is unknown on this system: ok is false.
func ProcessCPU() (d time.Duration, ok bool) { return 0, false }
