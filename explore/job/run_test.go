package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/wythoff"
)

func runFile(t *testing.T, name string) *Report {
	t.Helper()
	j, err := ParseFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), j, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func runSrc(t *testing.T, src string, opts Options) (*Report, error) {
	t.Helper()
	j, err := Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), j, opts)
}

// jsonOf returns the JSON of one section's results as a generic value, to
// compare with SPEC.md's form.
func jsonOf(t *testing.T, r Results) map[string]any {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGolay(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates 2^24 rows")
	}
	rep := runFile(t, "golay.yaml")
	r := rep.Sections[0].Results
	// Seed 000 and MATH.md: the extended Golay code, weights 1, 759, 2576, 759, 1.
	want := make([]uint64, 25)
	want[0], want[8], want[12], want[16], want[24] = 1, 759, 2576, 759, 1
	if !reflect.DeepEqual(r.Weights, want) {
		t.Errorf("weights %v", r.Weights)
	}
	if r.Method != "enumeration" {
		t.Errorf("method %q, want enumeration for 2^24 rows", r.Method)
	}
	if r.PPositions.Count != 4096 || r.PPositions.List != nil {
		t.Errorf("p-positions %+v", r.PPositions)
	}
	if *r.Steiner != (Steiner{Holds: true, T: 5, K: 8, V: 24, Lambda: 1, Blocks: 759}) {
		t.Errorf("steiner %+v", r.Steiner)
	}
	if r.Automorphisms != "244823040" { // |M24|
		t.Errorf("automorphisms %s", r.Automorphisms)
	}
	if c := r.Code; c.Dimension != 12 || c.MinDistance != 8 || c.Words != 4096 {
		t.Errorf("code %+v", c)
	}
}

func TestGolayLinearAlgebraTakesOver(t *testing.T) {
	// Below 2^24 positions the enumeration is refused and linear algebra
	// must give the same weights.
	rep, err := runSrc(t, `limits: {positions: 1000000}
sections:
  - game: {coins: {rule: at-most, r: 7, n: 24}}
    show: [weights, code]
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Sections[0].Results
	if r.Method != "linear-algebra" || r.Weights[8] != 759 || r.Weights[12] != 2576 {
		t.Errorf("method %s weights %v", r.Method, r.Weights)
	}
}

// Every value below a bound, and more than 64 coins: OEIS A033623 lists
// the 43 values of at most 4 below 2^12 = 4096 up to 2372; the first
// 100 values of at most 7 end with f(100) = 6 411 555.
func TestCoinsBelow(t *testing.T) {
	_, err := runSrc(t, `limits: {memory: 1GiB}
sections:
  - game: {coins: {rule: at-most, r: 7, below: 2^32}}
    show: [values]
`, Options{})
	if err == nil || !strings.Contains(err.Error(), "at-most 7 values below 2^32 needs about 1.5 GiB, more than the memory limit of 1 GiB") {
		t.Errorf("at most 7 below 2^32 under 1 GiB: %v", err)
	}
	rep, err := runSrc(t, `sections:
  - game: {coins: {rule: at-most, r: 4, below: 2373}}
    show: [values]
  - game: {coins: {rule: at-most, r: 7, n: 100}}
    show: [values]
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Sections[0].Results.Values
	if len(v) != 43 || v[4] != 15 || v[42] != 2372 {
		t.Errorf("at most 4 below 2373: %d values %v", len(v), v)
	}
	if v := rep.Sections[1].Results.Values; len(v) != 100 || v[99] != 6411555 {
		t.Errorf("at most 7 on 100 coins: %d values, last %d", len(v), v[len(v)-1])
	}
}

func TestNim1357(t *testing.T) {
	rep := runFile(t, "nim-1357.yaml")
	start := rep.Sections[0].Results
	// Seed 001: 384 positions, 48 losing ones; the start is a P-position.
	if start.PPositions.Count != 48 || start.PPositions.Of != 384 || start.Outcome != "P" {
		t.Errorf("start: %+v outcome %s", start.PPositions, start.Outcome)
	}
	if m := start.Moves.([][]int); len(m) != 0 {
		t.Errorf("moves from a P-position: %v", m)
	}
	after := rep.Sections[1].Results
	// Seed 000: from (1,3,5,5) the winning move is to (1,1,5,5).
	if after.Outcome != "N" || !reflect.DeepEqual(after.Moves, [][]int{{1, 1, 5, 5}}) {
		t.Errorf("(1,3,5,5): %s %v", after.Outcome, after.Moves)
	}
	rec := rep.Sections[2].Results.Record
	// Seed 000's game: the only bad move is (1,3,5,5) → (1,3,3,5), by player 2.
	if rec.Mistakes != 1 || !rec.Moves[1].Mistake || rec.Moves[1].Player != 2 || rec.Winner != 1 {
		t.Errorf("record %+v", rec)
	}
	if !reflect.DeepEqual(rec.Moves[1].Missed, []any{[]int{1, 1, 5, 5}}) {
		t.Errorf("missed %v", rec.Moves[1].Missed)
	}
	mis := rep.Sections[3].Results
	if mis.Outcome != "P" { // misère (1,3,5,7): not all heaps ≤ 1, so as normal play
		t.Errorf("misère outcome %s", mis.Outcome)
	}
}

func TestCoinsTable(t *testing.T) {
	rep := runFile(t, "coins-fr.yaml")
	// Seed 000, table of f_r(n), r = 1..9, n = 1..10.
	want := [][]uint64{
		{1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		{1, 2, 4, 7, 8, 11, 13, 14, 16, 19},
		{1, 2, 4, 8, 15, 16, 32, 51, 64, 85},
		{1, 2, 4, 8, 16, 31, 32, 64, 103, 128},
		{1, 2, 4, 8, 16, 32, 63, 64, 128, 256},
		{1, 2, 4, 8, 16, 32, 64, 127, 128, 256},
		{1, 2, 4, 8, 16, 32, 64, 128, 255, 256},
		{1, 2, 4, 8, 16, 32, 64, 128, 256, 511},
	}
	for r, w := range want {
		if got := rep.Sections[r].Results.Values; !reflect.DeepEqual(got, w) {
			t.Errorf("r = %d: %v, want %v", r+1, got, w)
		}
	}
	if got := rep.Sections[9].Results.Values; len(got) != 40 || !reflect.DeepEqual(got[:10], want[3]) {
		t.Errorf("longer run: %v", got)
	}
}

func TestHamming(t *testing.T) {
	rep := runFile(t, "hamming.yaml")
	h := rep.Sections[0].Results
	if !reflect.DeepEqual(h.Weights, []uint64{1, 0, 0, 7, 7, 0, 0, 1}) || h.Automorphisms != "168" {
		t.Errorf("Hamming: weights %v, |Aut| %s", h.Weights, h.Automorphisms)
	}
	if *h.Steiner != (Steiner{Holds: true, T: 2, K: 3, V: 7, Lambda: 1, Blocks: 7}) { // the Fano plane
		t.Errorf("Hamming design %+v", h.Steiner)
	}
	e := rep.Sections[1].Results
	if !reflect.DeepEqual(e.Weights, []uint64{1, 0, 0, 0, 14, 0, 0, 0, 1}) || e.Automorphisms != "1344" {
		t.Errorf("extended Hamming: weights %v, |Aut| %s", e.Weights, e.Automorphisms)
	}
	if *e.Steiner != (Steiner{Holds: true, T: 3, K: 4, V: 8, Lambda: 1, Blocks: 14}) {
		t.Errorf("extended Hamming design %+v", e.Steiner)
	}
	if got := rep.Sections[2].Results.Values; !reflect.DeepEqual(got, []uint64{1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16}) {
		t.Errorf("ruler %v", got)
	}
	if got := rep.Sections[3].Results.Values; !reflect.DeepEqual(got[:7], []uint64{0, 0, 1, 2, 4, 7, 8}) {
		t.Errorf("exactly 3 from 0: %v", got)
	}
}

func TestWythoff(t *testing.T) {
	rep := runFile(t, "wythoff.yaml")
	pp := rep.Sections[0].Results.PPositions
	// MATH.md: with heaps ≤ 5, (0,0), (1,2), (2,1), (3,5), (5,3).
	if !reflect.DeepEqual(pp.List, [][]int{{0, 0}, {1, 2}, {2, 1}, {3, 5}, {5, 3}}) {
		t.Errorf("P-positions %v", pp.List)
	}
	big := rep.Sections[1].Results
	if big.Outcome != "N" || len(big.Moves.([][]int)) == 0 || len(big.RowPeriods) == 0 {
		t.Errorf("(4,7): %s %v periods %v", big.Outcome, big.Moves, big.RowPeriods)
	}
}

func TestPeriods(t *testing.T) {
	rep := runFile(t, "subtraction.yaml")
	tests := []struct {
		section int
		want    Period
	}{
		{0, Period{Proven: true, Preperiod: 0, Period: 4, CheckedTo: 0}},     // CheckedTo compared below
		{2, Period{Proven: true, Preperiod: 71, Period: 12, CheckedTo: 167}}, // Kayles, MATH.md
		{3, Period{Proven: true, Preperiod: 53, Period: 34}},                 // Dawson's Kayles 0.07: last exception 52
		{4, Period{Proven: true, Preperiod: 52, Period: 34}},                 // Dawson's chess 0.137: last exception 51 (Winning Ways)
	}
	for _, tt := range tests {
		got := rep.Sections[tt.section].Results.Period
		if !got.Proven || got.Preperiod != tt.want.Preperiod || got.Period != tt.want.Period || (tt.want.CheckedTo != 0 && got.CheckedTo != tt.want.CheckedTo) {
			t.Errorf("section %d: %+v, want %+v", tt.section, got, tt.want)
		}
	}
	if v := rep.Sections[0].Results.Values; v[5] != 1 || v[7] != 3 { // seed 002: n mod 4
		t.Errorf("take 1-3: %v", v)
	}
}

func TestNimbers(t *testing.T) {
	rep := runFile(t, "nimbers.yaml")
	tab := rep.Sections[0].Results.Table.([][]uint64)
	// Seed 000: rows 2 and 4 of the nim-product table of 0..7.
	if !reflect.DeepEqual(tab[2], []uint64{0, 2, 3, 1, 8, 10, 11, 9}) || !reflect.DeepEqual(tab[4], []uint64{0, 4, 8, 12, 6, 2, 14, 10}) {
		t.Errorf("rows 2 and 4: %v %v", tab[2], tab[4])
	}
}

func TestProducts(t *testing.T) {
	rep := runFile(t, "products.yaml")
	tab := rep.Sections[0].Results.Table.([][]uint64)
	want, _ := runSrc(t, "sections:\n  - nimbers: {op: product, size: 8}\n    show: [table]\n", Options{})
	// Twins × Twins numbered from 0 is a ⊗ b: seed 000's nim-product table.
	if !reflect.DeepEqual(tab, want.Sections[0].Results.Table) {
		t.Errorf("Twins × Twins: %v", tab)
	}
	nim := rep.Sections[1].Results
	// Nim × Nim numbered from 1: (2,4) ⊕ (6,6) has value 8 ⊕ 7 ≠ 0.
	if nim.Table.([][]uint64)[1][3] != 8 || nim.Outcome != "N" || len(nim.Moves.([][][]int)) == 0 {
		t.Errorf("Nim × Nim: %+v", nim)
	}
}

func TestGraphs(t *testing.T) {
	rep := runFile(t, "graphs.yaml")
	g := rep.Sections[0].Results.Graph
	// Seed 003: the kernel of the graph of (1,2,3) is (1,2,3), (2,2), (1,1), ().
	if len(g.Kernel) != 4 || !strings.Contains(g.DOT, "digraph") {
		t.Errorf("graph %+v", g)
	}
}

func TestJSONForm(t *testing.T) {
	rep := runFile(t, "nim-1357.yaml")
	m := jsonOf(t, rep.Sections[0].Results)
	if _, ok := m["p_positions"]; !ok {
		t.Errorf("no p_positions key: %v", m)
	}
	if mv, ok := m["moves"]; !ok || len(mv.([]any)) != 0 {
		t.Errorf("moves from a P-position must be [], got %v", m["moves"])
	}
	for _, k := range []string{"values", "weights", "period", "steiner"} {
		if _, ok := m[k]; ok {
			t.Errorf("key %q present though not asked for", k)
		}
	}
}

func TestRefusedBeforeWork(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"wythoff cells", "limits: {positions: 100}\nsections:\n  - game: {wythoff: {size: [20, 20]}}\n    show: [table]\n", "--max-positions"},
		{"coin rows", "limits: {positions: 1000}\nsections:\n  - game: {coins: {rule: at-most, r: 7, n: 24}}\n    show: [weights]\n", "limit"},
		{"heap values", "limits: {positions: 100}\nsections:\n  - game: {octal: {code: \"0.77\", upto: 5000}}\n    show: [values]\n", "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runSrc(t, tt.src, Options{})
			var re *RunError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "test.yaml:3") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// TestRefusedByMemory: work past the memory limit is refused from its
// estimate, naming the limit and the flag, in every family.
func TestRefusedByMemory(t *testing.T) {
	tests := []struct{ name, src, want string }{
		// The fill's bytes depend on the number of workers (GOMAXPROCS).
		{"wythoff table", "sections:\n  - game: {wythoff: {size: [3000, 3000]}}\n    show: [table]\n", "a 3000×3000 Wythoff table needs about " + budget.FormatSize(wythoff.TableBytes(3000, 3000)+3000*3000*8+3000*24) + ", more than the memory limit of 64 MiB; raise it with --max-memory"},
		{"nimbers", "sections:\n  - nimbers: {size: 4096}\n    show: [table]\n", "a 4096×4096 nim-product table needs about 128.1 MiB"},
		{"heap values", "sections:\n  - game: {subtraction: {set: [1, 2], upto: 10000000}}\n    show: [period]\n", "more than the memory limit of 64 MiB (raise it with --max-memory"},
		{"coin values", "sections:\n  - game: {coins: {rule: at-most, r: 20, n: 64}}\n    show: [values]\n", "more than the memory limit of 64 MiB (raise it with --max-memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runSrc(t, tt.src, Options{Limits: Limits{Memory: 64 << 20}})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "test.yaml:2") {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestHugeWythoff: positions near 2^40 are answered (normal-play moves) or
// refused before any allocation (graphs, records, misère play).
func TestHugeWythoff(t *testing.T) {
	const pos = "[1099511627775, 1099511627776]"
	rep, err := runSrc(t, "sections:\n  - game: {wythoff: {size: [2, 2], position: "+pos+"}}\n    show: [outcome, moves]\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Sections[0].Results.Moves; fmt.Sprint(got) != "[[1 2] [679535556991 1099511627776]]" {
		t.Errorf("moves = %v", got)
	}
	for _, src := range []string{
		"sections:\n  - game: {wythoff: {size: [2, 2], position: " + pos + "}}\n    show: [graph]\n",
		"sections:\n  - game: {wythoff: {size: [2, 2]}}\n    record: [" + pos + ", [1, 1099511627776]]\n    show: [record]\n",
		"sections:\n  - game: {wythoff: {size: [2, 2], position: " + pos + ", play: misere}}\n    show: [outcome]\n",
	} {
		if _, err := runSrc(t, src, Options{}); err == nil || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%s: err = %v", src, err)
		}
	}
}

// TestCancelled: a cancelled run stops with the cause, never "context
// canceled".
func TestCancelled(t *testing.T) {
	j, err := Parse("test.yaml", []byte("sections:\n  - game: {wythoff: {size: [4000, 4000]}}\n    show: [p-positions]\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Cancelled as the section starts, by the callback that says so.
	ctx, cancel := context.WithCancelCause(context.Background())
	_, err = Run(ctx, j, Options{Progress: func(int, *Section) { cancel(errors.New("interrupt signal received")) }})
	if err == nil || !strings.HasSuffix(err.Error(), "interrupt signal received") || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestRare(t *testing.T) {
	rep := runFile(t, "rare.yaml")
	// A. Flammenkamp's table of 0.051: mask 0 (bitstring all ones), domain
	// type with t = 2, sparse positions 0, 3, 7, 13, 17, 27, 37.
	r := rep.Sections[0].Results.Rare
	if r == nil || r.Mask != 0 || r.Type != "domain" || r.T == nil || *r.T != 2 || r.Count != 7 || r.CheckedTo != 200 || r.Last != 37 ||
		!reflect.DeepEqual(r.Positions, []int{0, 3, 7, 13, 17, 27, 37}) {
		t.Errorf("0.051: %+v", r)
	}
	if p := rep.Sections[0].Results.Period; p.Preperiod != 48 || p.Period != 48 {
		t.Errorf("0.051 period %+v, want 48 from 48 (Flammenkamp)", p)
	}
	// 0.16 to 2000: bit 0 ignored (Winning Ways ch. 4); the count and the
	// last rare position are explore/heap's, checked there by enumeration.
	r = rep.Sections[1].Results.Rare
	if r == nil || r.Mask != 1 || r.Type != "range" || r.T != nil || r.Count != 50 || r.Last != 1244 || len(r.Values) != 2001 {
		t.Errorf("0.16: %+v", r)
	}
	if rep.Sections[1].Results.Values != nil {
		t.Error("0.16: values reported though not asked for")
	}
	m := jsonOf(t, rep.Sections[0].Results)
	// The largest value of 0.051, 5, first at heap 23: T. Czajka's
	// TrivialGames.md prints it at 22, on heaps one smaller (no move takes
	// a heap of 1).
	want := map[string]any{"mask": 0.0, "type": "domain", "t": 2.0, "count": 7.0, "positions": []any{0.0, 3.0, 7.0, 13.0, 17.0, 27.0, 37.0}, "checked_to": 200.0,
		"last": 37.0, "largest": 5.0, "largest_at": 23.0, "algorithm": "sets"}
	if !reflect.DeepEqual(m["rare"], want) {
		t.Errorf("JSON rare = %v, want %v", m["rare"], want)
	}
	if rr := jsonOf(t, rep.Sections[1].Results)["rare"].(map[string]any); rr["t"] != nil || rr["type"] != "range" || rr["algorithm"] != "sets" {
		t.Errorf("range type JSON: %v", rr)
	}
}

func TestRareHexAndLongLists(t *testing.T) {
	rep, err := runSrc(t, `sections:
  - game: {hex: {code: "0.f", upto: 40}}
    show: [rare]
  - game: {octal: {code: "0.3", upto: 2500}}
    show: [rare]
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 0.f takes one token and leaves the rest as nothing or one, two or
	// three heaps: here g(n) = n mod 2, so with t = 1 no position is in the domain-type
	// sparse set, and the empty list is still written.
	if r := rep.Sections[0].Results.Rare; r == nil || r.Type != "domain" || *r.T != 1 || r.Count != 0 || r.Last != -1 || !reflect.DeepEqual(r.Positions, []int{}) {
		t.Errorf("hex 0.f: %+v", r)
	}
	if p, ok := jsonOf(t, rep.Sections[0].Results)["rare"].(map[string]any)["positions"]; !ok || len(p.([]any)) != 0 {
		t.Errorf("hex 0.f: positions %v, want []", p)
	}
	// 0.3 is take one: g alternates 0, 1, so the best split makes the 1251
	// zeros rare, too many to list.
	r := rep.Sections[1].Results.Rare
	if r.Count != 1251 || r.Positions != nil || r.Last != 2500 {
		t.Errorf("0.3: count %d, last %d, listed %v", r.Count, r.Last, r.Positions != nil)
	}
	if _, ok := jsonOf(t, rep.Sections[1].Results)["rare"].(map[string]any)["positions"]; ok {
		t.Error("positions listed past MaxListed")
	}
}

// TestEstimateStated: a long sweep's cost is told before it starts; a short
// one's is not.
func TestEstimateStated(t *testing.T) {
	var told []string
	opts := Options{Estimate: func(i int, s *Section, cost string) { told = append(told, fmt.Sprintf("%d %s", i, cost)) }}
	src := "sections:\n  - game: {nim: {upto: 20}}\n    show: [values]\n  - game: {nim: {upto: 10000000}}\n    show: [period]\n"
	if _, err := runSrc(t, src, opts); err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || !strings.HasPrefix(told[0], "1 nim up to 10000000: ") || !strings.Contains(told[0], "MiB") {
		t.Errorf("told %q, want the second section's cost alone", told)
	}
}

// TestHeldResults: the results of the sections done stay in memory until
// the report is rendered, so a later section's estimate is checked beside
// them; alone, the same section runs. After the run nothing is held.
func TestHeldResults(t *testing.T) {
	const first = "  - game: {subtraction: {set: [1, 2], upto: 3000000}}\n    show: [values]\n"
	const second = "  - game: {subtraction: {set: [1, 3], upto: 4500000}}\n    show: [values]\n"
	opts := Options{Jobs: 1, Limits: Limits{Memory: 64 << 20}}
	debug.FreeOSMemory() // the watchdog reads the resident set: other tests' garbage returned
	_, err := runSrc(t, "sections:\n"+first+second, opts)
	const want = "needs about 34.3 MiB, and the program itself about 46.9 MiB: more than the memory limit of 64 MiB"
	var re *RunError
	if !errors.As(err, &re) || re.Section != "#2" || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want section #2 refused: %q", err, want)
	}
	debug.FreeOSMemory() // the watchdog counts the test process's resident set: not the first run's garbage
	// Alone, the second section fits: 34.3 MiB beside what the test
	// process holds now, which earlier tests of the package leave at 15 to
	// 25 MiB; the limit follows it, so that only a result still held from
	// the first run (22.9 MiB) would stop the section.
	alone := opts
	alone.Limits.Memory = max(64<<20, budget.Used()+48<<20)
	if _, err := runSrc(t, "sections:\n"+second, alone); err != nil {
		t.Errorf("alone, under %d MiB: %v", alone.Limits.Memory>>20, err)
	}
	if err := budget.Exceeds("after the run", 40<<20, 64<<20); err != nil {
		t.Errorf("something is still held: %v", err)
	}
}
