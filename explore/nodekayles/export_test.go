package nodekayles

// ForgetSolvers drops the process's shared solvers, as a new process
// starts without them: the tests of memo files run twice in one process.
func ForgetSolvers() { shared.Release() }

// MemoStats is the statistics of the shared solver of the memory limit
// and memo file, as the games of a job use it.
func MemoStats(limit int64, file string) (Stats, bool) {
	kp, ok := shared.Lookup(limit, file)
	if !ok {
		return Stats{}, false
	}
	return kp.Solver.Stats(), true
}
