//go:build !unix

package heap

// cpuTime is 0 where the process's CPU time is not read: cpu-ns/op then
// says 0.
func cpuTime() int64 { return 0 }
