package heap

// ObservedPeriod returns the least p, and for it the least n0, with
// values[n+p] = values[n] for every n0 ≤ n ≤ len(values)−1−p and at least
// repeats whole periods from n0 on; ok is false when there is none. It
// proves nothing: a rule without a periodicity theorem (a Starlark rule,
// Grundy's game) can only be seen to repeat within the values computed.
func ObservedPeriod(values []uint64, repeats int) (n0, p int, ok bool) {
	repeats = max(repeats, 1)
	last := len(values) - 1
	for p = 1; repeats*p <= len(values); p++ {
		n0 = 0
		for n := last - p; n >= 0; n-- {
			if values[n+p] != values[n] {
				n0 = n + 1
				break
			}
		}
		if last+1-n0 >= repeats*p {
			return n0, p, true
		}
	}
	return 0, 0, false
}
