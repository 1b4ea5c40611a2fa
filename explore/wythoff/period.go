package wythoff

import "context"

// RowPeriod is an additive period of one row seen in a finite table:
// g(Row, y + Period) = g(Row, y) + Period for every y ≥ Start with
// y + Period inside the table. It is observed, not proven: a wider table
// could contradict it.
type RowPeriod struct {
	Row    int
	Period int // the least period seen
	Start  int // y₀: the least y from which the relation holds, for Period
	// Periods counts the whole periods seen from Start to the table's
	// edge, (cols − Start) / Period; always at least 2.
	Periods int
}

// RowPeriods returns, for each row in increasing order, the least additive
// period seen with at least two whole periods inside the table, and omits
// the rows where none is seen. A candidate must also be consistent with the
// row being a permutation of the naturals (as every row of Wythoff's table
// is): the values left of Start must be exactly the naturals the periodic
// part misses. That discards the short coincidences, such as three
// consecutive values at the table's edge posing as period 1.
//
// A row without a period costs O(cols²), so a wide table takes a while:
// ctx (nil: never) stops the search, with budget.Err of it.
func (t *Table) RowPeriods(ctx context.Context) ([]RowPeriod, error) {
	opts := Options{Context: ctx}
	var out []RowPeriod
	var row []uint64
	work := 1 << 16 // check before the first row
	for x := 0; x < t.rows; x++ {
		row = t.AppendRow(row[:0], x)
		for p := 1; 2*p <= t.cols; p++ {
			if work += t.cols; work >= 1<<16+t.cols {
				work = 0
				if err := opts.stopped(); err != nil {
					return nil, err
				}
			}
			y0 := periodStart(row, p)
			if (t.cols-y0)/p < 2 || !consistent(row, p, y0) {
				continue
			}
			out = append(out, RowPeriod{Row: x, Period: p, Start: y0, Periods: (t.cols - y0) / p})
			break
		}
	}
	return out, nil
}

// periodStart returns the least y0 such that row[y+p] = row[y] + p for all
// y0 ≤ y < len(row) − p.
func periodStart(row []uint64, p int) int {
	for y := len(row) - 1 - p; y >= 0; y-- {
		if row[y+p] != row[y]+uint64(p) {
			return y + 1
		}
	}
	return 0
}

// consistent reports whether the row, extended by its period p from y0,
// is a permutation of the naturals: the p values from y0 fall in distinct
// classes mod p, and the values before y0 are exactly those below the
// periodic part in each class (as many of them as there are such naturals).
func consistent(row []uint64, p, y0 int) bool {
	head := make([]uint64, p) // head[r] = the periodic part's least value ≡ r
	seen := make([]bool, p)
	var below uint64
	for _, v := range row[y0 : y0+p] {
		r := v % uint64(p)
		if seen[r] {
			return false
		}
		seen[r] = true
		head[r] = v
		below += v / uint64(p)
	}
	if below != uint64(y0) {
		return false
	}
	// The prefix values are distinct (a row holds distinct values), so y0 of
	// them below their class's head are exactly the missing naturals.
	for _, v := range row[:y0] {
		if v >= head[v%uint64(p)] {
			return false
		}
	}
	return true
}
