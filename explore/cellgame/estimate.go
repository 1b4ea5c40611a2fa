package cellgame

import "math"

// Estimate is the memo a board of many columns is expected to need.
type Estimate struct {
	Entries int64 // memo entries
	Bytes   int64 // memory of the memo
	Sampled int   // the widest board solved to make it
}

// Extrapolate estimates the memo of a board n columns wide: it solves
// widths 1, 2, … with solve, which returns the entries of its memo after
// that width, until the memo passes sample entries or width n is solved,
// then carries the growth of the last width on to n (memos of grid games
// grow about geometrically with the width, slowly faster).
func Extrapolate(n int, sample int64, solve func(width int) (int64, error)) (Estimate, error) {
	var prev, last int64
	k := 0
	for k < n {
		entries, err := solve(k + 1)
		if err != nil {
			return Estimate{}, err
		}
		k++
		prev, last = last, entries
		if last > sample {
			break
		}
	}
	est := Estimate{Entries: last, Sampled: k}
	if k < n && prev > 0 {
		e := float64(last) * math.Pow(float64(last)/float64(prev), float64(n-k))
		est.Entries = int64(math.Min(e, math.MaxInt64/EntryBytes))
	}
	est.Bytes = est.Entries * EntryBytes
	return est, nil
}
