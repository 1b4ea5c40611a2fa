//go:build !unix

package notebook

// processCPU is zero where getrusage is missing: %time then shows the
// wall time and CPU times of 0 ns.
func processCPU() cpuTime { return cpuTime{} }
