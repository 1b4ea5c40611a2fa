package reports

import "math/bits"

// OEISEntry is one sequence of the small offline table of OEIS sequences
// nimbook recognises in a report. Only sequences whose terms are checked
// in the tests, against the engine's own values or a cited source, are in
// the table.
type OEISEntry struct {
	ID string // A-number, e.g. "A002186"
	// Name is the sequence's name in English and in French.
	Name, NameFR string
	// Offset is the index of the first term, as the OEIS gives it.
	Offset int
	// Term returns a(n) for n ≥ Offset, and false past the known terms.
	Term func(n int) (uint64, bool)
}

// terms serves a stored list of terms from offset, then, from start on,
// repeats the last period (the entry's cited periodicity formula).
func terms(offset int, ts []uint64, start, period int) func(int) (uint64, bool) {
	return func(n int) (uint64, bool) {
		i := n - offset
		if i < 0 {
			return 0, false
		}
		if i < len(ts) {
			return ts[i], true
		}
		if period <= 0 || n < start {
			return 0, false
		}
		// Fold n back into the stored terms, period by period.
		k := (n - start) % period
		j := start + k
		for j+period-offset < len(ts) {
			j += period
		}
		return ts[j-offset], true
	}
}

// OEIS is the offline table. Terms and offsets are from oeis.org (checked
// in oeis_test.go against the engine where it computes the same game).
var OEIS = []OEISEntry{
	{ID: "A000012", Name: "the all 1's sequence", NameFR: "la suite constante égale à 1", Offset: 0,
		Term: func(n int) (uint64, bool) { return 1, n >= 0 }},
	{ID: "A000027", Name: "the positive integers", NameFR: "les entiers strictement positifs", Offset: 1,
		Term: func(n int) (uint64, bool) { return uint64(n), n >= 1 }},
	{ID: "A001477", Name: "the nonnegative integers", NameFR: "les entiers naturels", Offset: 0,
		Term: func(n int) (uint64, bool) { return uint64(n), n >= 0 }},
	// Mock Turtles, "at most 3 coins" numbered from 1 (seed 000: 1 2 4 7 8 11 13 14 16 19).
	{ID: "A000069", Name: "odious numbers", NameFR: "nombres odieux", Offset: 1,
		Term: func(n int) (uint64, bool) {
			if n < 1 {
				return 0, false
			}
			// The n-th odious number is 2(n−1) or 2(n−1)+1, whichever has
			// an odd number of 1 bits.
			m := uint64(2 * (n - 1))
			if bits.OnesCount64(m)%2 == 0 {
				m++
			}
			return m, true
		}},
	// The ruler game, coins numbered from 1.
	{ID: "A006519", Name: "highest power of 2 dividing n", NameFR: "plus grande puissance de 2 divisant n", Offset: 1,
		Term: func(n int) (uint64, bool) {
			if n < 1 {
				return 0, false
			}
			return uint64(n) & -uint64(n), true
		}},
	{ID: "A010872", Name: "n mod 3", NameFR: "n mod 3", Offset: 0,
		Term: func(n int) (uint64, bool) { return uint64(n % 3), n >= 0 }},
	{ID: "A010873", Name: "n mod 4", NameFR: "n mod 4", Offset: 0,
		Term: func(n int) (uint64, bool) { return uint64(n % 4), n >= 0 }},
	// oeis.org/A002186, terms for n = 0..82; "from n = 71 on, the sequence
	// is periodic with period 12" (the entry's formula, Guy–Smith 1956).
	{ID: "A002186", Name: "Sprague-Grundy values of Kayles", NameFR: "valeurs de Grundy de Kayles", Offset: 0,
		Term: terms(0, []uint64{
			0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2,
			1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3,
			1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7,
			4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2,
			1, 8, 2}, 71, 12)},
	// oeis.org/A002187, terms for n = 0..85; "period 34 with the only
	// exceptions at n = 0, 14, 16, 17, 31, 34 and 51" (the entry's formula).
	{ID: "A002187", Name: "Sprague-Grundy values of Dawson's chess", NameFR: "valeurs de Grundy des échecs de Dawson", Offset: 0,
		Term: terms(0, []uint64{
			0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3,
			0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3,
			1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
			1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2,
			2, 4, 4, 5, 5, 9}, 52, 34)},
	// oeis.org/A000035: n mod 2; the Grundy values of Node Kayles on the
	// 2 × n grid (the ladder) for n ≥ 1, as the A316632 entry says.
	{ID: "A000035", Name: "period 2: repeat [0, 1]", NameFR: "période 2 : répéter [0, 1]", Offset: 0,
		Term: func(n int) (uint64, bool) { return uint64(n & 1), n >= 0 }},
	// oeis.org/A316632, terms for n = 1..16: Node Kayles on the 3 × n grid;
	// S. Brown et al., "Nimber Sequences of Node-Kayles Games", J. Integer
	// Seq. 23 (2020), Article 20.3.5.
	{ID: "A316632", Name: "Sprague-Grundy values of Node Kayles on the 3 × n grid", NameFR: "valeurs de Grundy de Kayles des sommets sur la grille 3 × n", Offset: 1,
		Term: terms(1, []uint64{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}, 0, 0)},
}

// oeisMinAgree is how many terms must agree before a difference is worth
// reporting: fewer, and the sequences merely start alike (1, 2, 4, …).
const oeisMinAgree = 8

// oeisResult is what the table says about a computed sequence.
type oeisResult struct {
	Entry    *OEISEntry
	Match    bool
	From, To int // the range of n compared
	At       int // first n where the sequence differs (when !Match)
	Want     uint64
	Got      uint64
	Shift    int // values[n] is compared with a(n + Shift)
}

// oeisShifts are the alignments tried: the natural one, then a(n − 1),
// which the OEIS uses for games whose values are another's shifted by one
// (Dawson's Kayles 0.07 has the values of Dawson's chess a(n − 1)).
var oeisShifts = []int{0, -1}

// lookupOEIS compares values (values[i] is the term for n = first + i)
// with every entry and alignment, and returns the one entry the values
// are: the match over the most terms, or else the difference after the
// most agreeing terms (at least oeisMinAgree). Between entries that fit as
// well (g(n) = n for n = 1..10 is both A000027, the positive integers, and
// A001477, the nonnegative integers), the one whose offset is the first n
// wins, then the natural alignment, then the table's order.
func lookupOEIS(values []uint64, first int) []oeisResult {
	rs := compareOEIS(values, first)
	if len(rs) == 0 {
		return nil
	}
	best := rs[0]
	for _, r := range rs[1:] {
		if oeisBetter(r, best, first) {
			best = r
		}
	}
	return []oeisResult{best}
}

// oeisBetter reports whether r describes the values better than s.
func oeisBetter(r, s oeisResult, first int) bool {
	if lr, ls := r.To-r.From, s.To-s.From; lr != ls {
		return lr > ls
	}
	if ar, as := r.Entry.Offset-r.Shift == first, s.Entry.Offset-s.Shift == first; ar != as {
		return ar
	}
	return r.Shift == 0 && s.Shift != 0
}

// compareOEIS returns every match of the values with an entry and
// alignment, or else every difference after at least oeisMinAgree
// agreeing terms, in table order.
func compareOEIS(values []uint64, first int) []oeisResult {
	var matches, diffs []oeisResult
	for k := range OEIS {
		e := &OEIS[k]
		for _, s := range oeisShifts {
			r := oeisResult{Entry: e, Shift: s, From: -1}
			agree, differs := 0, false
			for i, v := range values {
				n := first + i
				a, ok := e.Term(n + s)
				if n+s < e.Offset || !ok {
					if r.From >= 0 {
						break
					}
					continue
				}
				if r.From < 0 {
					r.From = n
				}
				r.To = n
				if a != v {
					r.At, r.Want, r.Got, differs = n, a, v, true
					break
				}
				agree++
			}
			switch {
			case r.From < 0:
			case !differs && agree >= 5:
				r.Match = true
				matches = append(matches, r)
			case agree >= oeisMinAgree && s == 0:
				diffs = append(diffs, r)
			}
			if r.Match {
				break // the natural alignment is enough
			}
		}
	}
	if len(matches) > 0 {
		return matches
	}
	return diffs
}
