package census

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// Verdicts of Compare.
const (
	// Agree: the same preperiod and period as published, or no period
	// proven for a game the tables leave unsolved.
	Agree = "agree"
	// Disagree: another period or preperiod, or none proven from values
	// that reach what the published proof needs.
	Disagree = "disagree"
	// New: a period proven for a game the tables leave unsolved, or for a
	// code they do not cover.
	New = "new"
	// Beyond: the published period needs more heaps than were computed.
	Beyond = "beyond"
	// Unlisted: a code the tables do not cover, no period proven.
	Unlisted = "unlisted"
)

// Expected is the published result, for the code compared: the entry of
// its standard form with preperiod and proof moved by the shift.
type Expected struct {
	Status    string `json:"status"`
	Preperiod int    `json:"preperiod,omitempty"`
	Period    int    `json:"period,omitempty"`
	// Needs is the largest heap whose value a proof of that period by
	// the window of heap.Period uses (Guy–Smith for splitting codes).
	Needs int `json:"needs,omitempty"`
	// Largest, Rare and Computed are those of the standard form as
	// published (not moved).
	Largest  *Largest   `json:"largest,omitempty"`
	Rare     *RareStats `json:"rare,omitempty"`
	Computed int        `json:"computed,omitempty"`
	SolvedBy *SolvedBy  `json:"solved_by,omitempty"`
	Sources  []string   `json:"sources"`
}

// Row is the census entry of one code.
type Row struct {
	Code string `json:"code"`
	// Standard is the code's standard form, "" for a code the tables do
	// not cover; the code's values are Standard's moved Shift heaps.
	Standard  string    `json:"standard,omitempty"`
	Shift     int       `json:"shift"`
	Published *Expected `json:"published,omitempty"`
	Verdict   string    `json:"verdict"`
	// FirstDifference is the first heap where the code's values differ
	// from the published ones (a disagreement with published values).
	FirstDifference *int `json:"first_difference,omitempty"`
}

// maxDifference bounds the values Compare computes to find where a
// disagreement starts.
const maxDifference = 1 << 16

// Compare reads the period result p of an octal code, its values computed
// up to upto, against the published tables.
func Compare(code string, upto int, p *job.Period) (Row, error) {
	t, err := Published()
	if err != nil {
		return Row{}, err
	}
	g, err := heap.ParseOctal(code)
	if err != nil {
		return Row{}, fmt.Errorf("census: %w", err)
	}
	row := Row{Code: g.Code()}
	proven := p != nil && p.Proven
	sf, ok := g.Standard()
	var pub *Game
	if ok {
		row.Standard, row.Shift = sf.Code, sf.Shift
		pub = t.Game(sf.Code)
	}
	if pub == nil {
		row.Verdict = Unlisted
		if proven {
			row.Verdict = New
		}
		return row, nil
	}
	e := &Expected{Status: pub.Status, Largest: pub.Largest, Rare: pub.Rare, Computed: pub.Computed, SolvedBy: pub.SolvedBy, Sources: pub.Sources}
	row.Published = e
	var value func(int) (uint64, bool)
	if pub.Status == StatusUnsolved {
		row.Verdict = Agree
		if proven {
			row.Verdict = New
		}
		return row, nil
	}
	e.Period = pub.Period
	e.Preperiod, value = expect(pub, sf)
	e.Needs = needs(g, e.Preperiod, e.Period)
	checked := 0
	if p != nil {
		checked = p.CheckedTo
	}
	switch {
	case proven && p.Preperiod == e.Preperiod && p.Period == e.Period:
		row.Verdict = Agree
		return row, nil
	case !proven && checked < e.Needs:
		row.Verdict = Beyond
		return row, nil
	}
	row.Verdict = Disagree
	if pub.Values != "" {
		n, err := firstDifference(g, value, min(upto, max(e.Needs, checked), maxDifference))
		if err != nil {
			return Row{}, err
		}
		if n >= 0 {
			row.FirstDifference = &n
		}
	}
	return row, nil
}

// expect returns the preperiod a code of standard form sf has when pub is
// published for sf, and its published values.
func expect(pub *Game, sf heap.StandardForm) (int, func(int) (uint64, bool)) {
	// Values printed for the normal form are the code's from heap
	// Reduced on; those of the standard form, the code's from Shift on.
	shift := sf.Shift
	if pub.Reduced {
		shift = sf.Reduced
	}
	value := shifted(pub, shift)
	n0 := max(0, pub.Preperiod+shift)
	if pub.Values != "" {
		// The zeros before a moved sequence may continue its period.
		for n0 > 0 {
			a, _ := value(n0 - 1)
			b, _ := value(n0 - 1 + pub.Period)
			if a != b {
				break
			}
			n0--
		}
	}
	return n0, value
}

// shifted returns the published values of a code whose values are those
// of pub moved shift heaps.
func shifted(pub *Game, shift int) func(n int) (uint64, bool) {
	return func(n int) (uint64, bool) {
		m := n - shift
		if m < 0 {
			return 0, true
		}
		return pub.Value(m)
	}
}

// needs is the largest heap a window proof of (n0, p) uses for g: values
// up to L − 1 + p, where the window is n0 ≤ n < L (heap/period.go).
func needs(g *heap.Octal, n0, p int) int {
	t, split := 0, false
	for k := 0; k <= 256; k++ {
		if d := g.Digit(k); d != 0 {
			t = k
			split = split || d&4 != 0
		}
	}
	n1 := max(n0, 1)
	if split {
		return 2*n1 + p + t - 1 + p
	}
	return n1 + t - 1 + p
}

// firstDifference is the first heap up to upto where g's values differ
// from want, −1 when none does.
func firstDifference(g *heap.Octal, want func(int) (uint64, bool), upto int) (int, error) {
	vs, err := g.Values(upto, heap.Limits{})
	if err != nil {
		return 0, fmt.Errorf("census: %w", err)
	}
	for n, v := range vs {
		if w, ok := want(n); ok && w != v {
			return n, nil
		}
	}
	return -1, nil
}
