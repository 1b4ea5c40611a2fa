package plots

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// subtraction returns g(0..upto) of the subtraction game S, by the
// definition: g(n) = mex{g(n − s) : s ∈ S, s ≤ n}.
func subtraction(set []int, upto int) []uint64 {
	g := make([]uint64, upto+1)
	for n := range g {
		opts := map[uint64]bool{}
		for _, s := range set {
			if s <= n {
				opts[g[n-s]] = true
			}
		}
		g[n] = mex(opts)
	}
	return g
}

// periodOf is the least period p and the least preperiod of g seen in
// its values (the last quarter of g is left as the witness).
func periodOf(g []uint64) (pre, p int) {
	for p = 1; p < len(g)/4; p++ {
		pre = len(g) - p
		for pre > 0 && g[pre-1] == g[pre-1+p] {
			pre--
		}
		if pre < len(g)*3/4-p {
			return pre, p
		}
	}
	return 0, 0
}

// subsets lists the non-empty S ⊆ {1..k}.
func subsets(k int) [][]int {
	var out [][]int
	for m := 1; m < 1<<k; m++ {
		var s []int
		for i := range k {
			if m&(1<<i) != 0 {
				s = append(s, i+1)
			}
		}
		out = append(out, s)
	}
	return out
}

// pairPeriods places the subtraction games S = {a, b}, 1 ≤ a < b ≤ k, at
// (a, b) with the period seen in g(0..upto), unknown when none is.
func pairPeriods(k, upto int) []MapCell {
	var out []MapCell
	for b := 2; b <= k; b++ {
		for a := 1; a < b; a++ {
			_, p := periodOf(subtraction([]int{a, b}, upto))
			out = append(out, MapCell{X: a, Y: b, Value: uint64(p), Known: p > 0})
		}
	}
	return out
}

// surveyFigures are the figures of a survey of the subtraction games
// within {1..4}, and of games S = {k} (g(n) = ⌊n/k⌋ mod 2, period 2k),
// with Kayles (period 12 from 71) and Dawson's Kayles (34 from 53).
func surveyFigures(t *testing.T) map[string]*plot.Plot {
	t.Helper()
	must := func(p *plot.Plot, err error) *plot.Plot {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var periods, pres []int
	var rows [][]uint64
	var names []string
	for _, s := range subsets(4) {
		g := subtraction(s, 200)
		pre, p := periodOf(g)
		periods, pres = append(periods, p), append(pres, pre)
		rows = append(rows, g[:60])
		names = append(names, strings.ReplaceAll(fmt.Sprint(s), " ", ","))
	}
	rows, names = append(rows, nil), append(names, "[1,2,3,4,5]") // a variant not done
	var wide []int
	for k := 1; k <= 100; k++ {
		wide = append(wide, 2*k)
	}
	longX, longY := []int{12, 34}, []int{71, 53}
	for _, k := range []int{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233} {
		longX, longY = append(longX, 2*k), append(longY, 0)
	}
	// Rows of binomial coefficients: every row of n coins by heads.
	var pascal [][]uint64
	for n := 0; n <= 24; n++ {
		r := make([]uint64, n+1)
		r[0], r[n] = 1, 1
		for w := 1; w < n; w++ {
			r[w] = pascal[n-1][w-1] + pascal[n-1][w]
		}
		pascal = append(pascal, r)
	}
	return map[string]*plot.Plot{
		// Seen in 60 values, periods from 15 on are not proven.
		"survey-map":         must(ParamMap(pairPeriods(12, 60), Labels{Title: "Period of S = {a, b}", X: "a", Y: "b"})),
		"survey-map-large":   must(ParamMap(pairPeriods(40, 200), Labels{Title: "Period of S = {a, b}", X: "a", Y: "b"})),
		"survey-periods":     must(Histogram(periods, Labels{Title: "Periods", X: "period", Y: "variants"})),
		"survey-periods-log": must(Histogram(wide, Labels{Title: "Periods of S = {k}", X: "period", Y: "variants"})),
		"survey-scatter":     must(Scatter(periods, pres, Labels{Title: "Preperiod against period", X: "period", Y: "preperiod"})),
		"survey-scatter-log": must(Scatter(longX, longY, Labels{Title: "Preperiod against period", X: "period", Y: "preperiod"})),
		"survey-values":      must(ValueRows(rows, 0, Labels{Title: "Values", X: "n", Y: "S", Rows: names})),
		"survey-counts":      must(CountRows(pascal, 0, Labels{Title: "Rows by heads", X: "heads", Y: "n"})),
	}
}

func TestSurveySVGGolden(t *testing.T) {
	figs := surveyFigures(t)
	for name, p := range figs {
		t.Run(name, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := SVG(&a, p, Width, SquareHeight); err != nil {
				t.Fatal(err)
			}
			if err := SVG(&b, surveyFigures(t)[name], Width, SquareHeight); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("SVG bytes differ between two runs")
			}
			golden(t, name+".svg", a.Bytes())
			look(t, name, p, Width, SquareHeight)
		})
	}
}

func TestHistogramBins(t *testing.T) {
	tests := []struct {
		name   string
		xs     []int
		names  []string
		counts []uint64
	}{
		{"one per value", []int{2, 4, 4, 5}, []string{"2", "3", "4", "5"}, []uint64{1, 0, 2, 1}},
		{"one value", []int{7, 7}, []string{"7"}, []uint64{2}},
		{"powers of two", []int{1, 2, 3, 4, 5, 100}, []string{"1", "2", "3–4", "5–8", "9–16", "17–32", "33–64", "65–128"}, []uint64{1, 1, 2, 1, 0, 0, 0, 1}},
		{"with zero", []int{0, 1, 64}, []string{"≤ 1", "2", "3–4", "5–8", "9–16", "17–32", "33–64"}, []uint64{2, 0, 0, 0, 0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			names, counts := histogramBins(tc.xs)
			if !reflect.DeepEqual(names, tc.names) || !reflect.DeepEqual(counts, tc.counts) {
				t.Errorf("bins %q %v, want %q %v", names, counts, tc.names, tc.counts)
			}
		})
	}
}

// The figure data are right: the periods of the subtraction games within
// {1..4} are those of the definition, and {1..k} has period k + 1.
func TestSurveyFigureData(t *testing.T) {
	for k := 1; k <= 4; k++ {
		var s []int
		for i := 1; i <= k; i++ {
			s = append(s, i)
		}
		if pre, p := periodOf(subtraction(s, 200)); pre != 0 || p != k+1 {
			t.Errorf("{1..%d}: period %d from %d, want %d from 0", k, p, pre, k+1)
		}
	}
	if pre, p := periodOf(kayles(300)); pre != 71 || p != 12 {
		t.Errorf("Kayles: period %d from %d, want 12 from 71 (MATH.md)", p, pre)
	}
}

func TestLog1pScale(t *testing.T) {
	s := log1pScale{}
	if got := s.Normalize(0, 99, 9); got != 0.5 {
		t.Errorf("log(1 + 9) is half of log(1 + 99): got %v", got)
	}
	if got := s.Normalize(0, 99, 0); got != 0 {
		t.Errorf("0 at the start: got %v", got)
	}
	var labels []string
	for _, tk := range (log1pTicks{}).Ticks(0, 250) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "0 1 2 5 10 20 50 100 200" {
		t.Errorf("ticks %s", got)
	}
	var rows []string
	for _, tk := range (downTicks{}).Ticks(-20.5, 0.5) {
		rows = append(rows, tk.Label)
		if tk.Value > 0 {
			t.Errorf("tick %s at %v: rows run downwards", tk.Label, tk.Value)
		}
	}
	if got := strings.Join(rows, " "); got != "0 2 4 6 8 10 12 14 16 18 20" {
		t.Errorf("row ticks %s", got)
	}
}

func TestSurveyLimits(t *testing.T) {
	big := make([][]uint64, 2049)
	for i := range big {
		big[i] = make([]uint64, 512)
	}
	if _, err := ValueRows(big, 0, Labels{}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("%d cells: too large to draw (at most %d are drawn)", 2049*512, MaxRowCells)) {
		t.Errorf("ValueRows of %d cells: %v", 2049*512, err)
	}
	for name, err := range map[string]error{
		"no periods": func() error { _, err := Histogram(nil, Labels{}); return err }(),
		"no points":  func() error { _, err := Scatter(nil, nil, Labels{}); return err }(),
		"uneven":     func() error { _, err := Scatter([]int{1}, nil, Labels{}); return err }(),
		"negative":   func() error { _, err := Scatter([]int{-1}, []int{0}, Labels{}); return err }(),
		"no rows":    func() error { _, err := ValueRows(nil, 0, Labels{}); return err }(),
		"empty rows": func() error { _, err := CountRows([][]uint64{nil}, 0, Labels{}); return err }(),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
