package reports

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// Hand-made reports resembling real runs of explore/job. The numbers are
// computed here from the definitions (MATH.md), and checked against the
// seeds in fixtures' own test, so that the golden files pin right numbers.

func mex(set map[uint64]bool) uint64 {
	var m uint64
	for set[m] {
		m++
	}
	return m
}

// kayles returns g(0..upto) of the octal game 0.77.
func kayles(upto int) []uint64 {
	g := make([]uint64, upto+1)
	for n := 1; n <= upto; n++ {
		opts := map[uint64]bool{}
		for take := 1; take <= 2 && take <= n; take++ {
			rest := n - take
			for a := 0; a <= rest/2; a++ {
				opts[g[a]^g[rest-a]] = true
			}
		}
		g[n] = mex(opts)
	}
	return g
}

// atMost returns f_r(1..n): the value of one head when a move turns over
// at most r coins (coins numbered from 1).
func atMost(r, n int) []uint64 {
	const size = 1 << 13
	// reach[k][x]: x is the nim-sum of k distinct earlier values.
	reach := make([][]bool, r)
	for k := range reach {
		reach[k] = make([]bool, size)
	}
	reach[0][0] = true
	var f []uint64
	for i := 0; i < n; i++ {
		opts := map[uint64]bool{}
		for k := 0; k < r; k++ {
			for x, ok := range reach[k] {
				if ok {
					opts[uint64(x)] = true
				}
			}
		}
		v := mex(opts)
		f = append(f, v)
		for k := r - 1; k > 0; k-- {
			for x := range size {
				if reach[k-1][x] {
					reach[k][x^int(v)] = true
				}
			}
		}
	}
	return f
}

func wythoffTable(a, b int) [][]uint64 {
	t := make([][]uint64, a)
	for i := range t {
		t[i] = make([]uint64, b)
		for j := range t[i] {
			opts := map[uint64]bool{}
			for k := 0; k < i; k++ {
				opts[t[k][j]] = true
			}
			for k := 0; k < j; k++ {
				opts[t[i][k]] = true
			}
			for k := 1; k <= i && k <= j; k++ {
				opts[t[i-k][j-k]] = true
			}
			t[i][j] = mex(opts)
		}
	}
	return t
}

// nimProductTable uses the mex definition of ⊗ (MATH.md).
func nimProductTable(n int) [][]uint64 {
	t := make([][]uint64, n)
	for a := range t {
		t[a] = make([]uint64, n)
		for b := range t[a] {
			opts := map[uint64]bool{}
			for a2 := 0; a2 < a; a2++ {
				for b2 := 0; b2 < b; b2++ {
					opts[t[a2][b]^t[a][b2]^t[a2][b2]] = true
				}
			}
			t[a][b] = mex(opts)
		}
	}
	return t
}

func xor(hs []int) int {
	x := 0
	for _, h := range hs {
		x ^= h
	}
	return x
}

// nimPPositions lists the ordered tuples below heaps with nim-sum 0.
func nimPPositions(heaps []int) (list [][]int, of uint64) {
	var rec func(prefix []int)
	rec = func(prefix []int) {
		if len(prefix) == len(heaps) {
			of++
			if xor(prefix) == 0 {
				list = append(list, append([]int(nil), prefix...))
			}
			return
		}
		for v := 0; v <= heaps[len(prefix)]; v++ {
			rec(append(prefix, v))
		}
	}
	rec(nil)
	return list, of
}

func nimWinning(hs []int) [][]int {
	out := [][]int{}
	x := xor(hs)
	if x == 0 {
		return out
	}
	for i, h := range hs {
		if h^x < h {
			m := append([]int(nil), hs...)
			m[i] = h ^ x
			out = append(out, m)
		}
	}
	return out
}

func outcomeOf(hs []int) string {
	if xor(hs) == 0 {
		return "P"
	}
	return "N"
}

func nimRecord(seq [][]int) *job.Record {
	rec := &job.Record{}
	for i := 1; i < len(seq); i++ {
		from, to := seq[i-1], seq[i]
		m := job.RecordMove{Player: 1 + (i-1)%2, From: from, To: to, Legal: true, Before: outcomeOf(from), After: outcomeOf(to)}
		if m.Before == "N" && m.After == "N" {
			m.Mistake = true
			m.Missed = nimWinning(from)
			rec.Mistakes++
		}
		rec.Moves = append(rec.Moves, m)
	}
	if xor(seq[len(seq)-1]) == 0 && sum(seq[len(seq)-1]) == 0 {
		rec.Winner = 1 + (len(seq)-2)%2
	}
	return rec
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// nimGraph draws Nim from heaps as unordered multisets of non-zero heaps
// (seeds 001 and 003).
func nimGraph(heaps []int) *job.Graph {
	key := func(hs []int) string {
		var nz []int
		for _, h := range hs {
			if h > 0 {
				nz = append(nz, h)
			}
		}
		sort.Ints(nz)
		parts := make([]string, len(nz))
		for i, h := range nz {
			parts[i] = fmt.Sprint(h)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	type edge struct{ a, b string }
	nodes := map[string][]int{}
	edges := map[edge]bool{}
	var visit func(hs []int)
	visit = func(hs []int) {
		k := key(hs)
		if _, seen := nodes[k]; seen {
			return
		}
		nodes[k] = hs
		for i, h := range hs {
			for v := 0; v < h; v++ {
				m := append([]int(nil), hs...)
				m[i] = v
				edges[edge{k, key(m)}] = true
				visit(m)
			}
		}
	}
	visit(heaps)
	var names []string
	for k := range nodes {
		names = append(names, k)
	}
	sort.Strings(names)
	g := &job.Graph{Nodes: len(nodes), Edges: len(edges)}
	var dot strings.Builder
	dot.WriteString("digraph nim {\n")
	for _, k := range names {
		shape := "ellipse"
		if xor(nodes[k]) == 0 {
			g.Kernel = append(g.Kernel, k)
			shape = "box"
		}
		fmt.Fprintf(&dot, "  %q [shape=%s];\n", k, shape)
	}
	var es []edge
	for e := range edges {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].a+" "+es[i].b < es[j].a+" "+es[j].b })
	for _, e := range es {
		fmt.Fprintf(&dot, "  %q -> %q;\n", e.a, e.b)
	}
	dot.WriteString("}\n")
	g.DOT = dot.String()
	return g
}

func nimReport() *job.Report {
	list, of := nimPPositions([]int{1, 3, 5, 7})
	start := &job.Section{Title: "The standard start (1, 3, 5, 7)", Family: "nim", Play: "normal",
		Game: heapGame("nim", heap.Params{"heaps": []int{1, 3, 5, 7}, "upto": 20}), Show: []string{"p-positions", "outcome", "moves"}, Position: []int{1, 3, 5, 7}}
	after := &job.Section{Title: "After (1, 3, 5, 7) → (1, 3, 5, 5)", Text: "The winning move makes the nim-sum zero again.", Family: "nim", Play: "normal",
		Game: heapGame("nim", heap.Params{"heaps": []int{1, 3, 5, 5}, "upto": 20}), Show: []string{"outcome", "moves"}, Position: []int{1, 3, 5, 5}}
	game := [][]int{{1, 3, 5, 7}, {1, 3, 5, 5}, {1, 3, 3, 5}, {1, 3, 3, 1}, {0, 3, 3, 1}, {0, 3, 3, 0}, {0, 3, 0, 0}, {0, 0, 0, 0}}
	played := &job.Section{Title: "A game from the talk, analysed", Family: "nim", Play: "normal",
		Game: heapGame("nim", heap.Params{"heaps": []int{1, 3, 5, 7}, "upto": 20}), Show: []string{"record"}, Position: []int{1, 3, 5, 7}}
	graph := &job.Section{Title: "Nim from (1, 2, 3)", Family: "nim", Play: "normal",
		Game: heapGame("nim", heap.Params{"heaps": []int{1, 2, 3}, "upto": 20}), Show: []string{"graph", "outcome"}, Position: []int{1, 2, 3}}
	return &job.Report{Title: "Nim and Bouton's strategy", Lang: "en", Sections: []*job.SectionResult{
		{Title: start.Title, Spec: start, Results: job.Results{
			PPositions: &job.PPositions{Count: uint64(len(list)), Of: of, List: list},
			Outcome:    "P", Moves: nimWinning([]int{1, 3, 5, 7}), Position: []int{1, 3, 5, 7}, Game: "Nim (1,3,5,7)"}},
		{Title: after.Title, Text: after.Text, Spec: after, Results: job.Results{
			Outcome: "N", Moves: nimWinning([]int{1, 3, 5, 5}), Position: []int{1, 3, 5, 5}}},
		{Title: played.Title, Spec: played, Results: job.Results{Record: nimRecord(game)}},
		{Title: graph.Title, Spec: graph, Results: job.Results{Graph: nimGraph([]int{1, 2, 3}), Outcome: "N", Position: []int{1, 2, 3}}},
	}}
}

func kaylesReport() *job.Report {
	sp := &job.Section{Title: "Kayles (0.77)", Family: "octal", Play: "normal",
		Game: heapGame("octal", heap.Params{"code": "0.77", "upto": 100}), Show: []string{"values", "period", "plot"}}
	return &job.Report{Title: "Subtraction and octal games", Lang: "en", Sections: []*job.SectionResult{
		{Title: sp.Title, Spec: sp, Results: job.Results{
			Values: kayles(100),
			// MATH.md: period 12 from n = 71 (last exception 70), proof uses g up to 167.
			Period: &job.Period{Proven: true, Preperiod: 71, Period: 12, CheckedTo: 167, Method: heap.MethodGuySmith},
			Game:   "octal game 0.77"}},
	}}
}

// golayWeights is seed 000's weight distribution of the extended Golay
// code: 1 (0), 759 (8), 2576 (12), 759 (16), 1 (24).
var golayWeights = []uint64{1, 0, 0, 0, 0, 0, 0, 0, 759, 0, 0, 0, 2576, 0, 0, 0, 759, 0, 0, 0, 0, 0, 0, 0, 1}

func golayReport(lang string) *job.Report {
	title := "Mogul and the Golay code"
	sec := "Turn over at most seven coins, on 24 coins"
	text := "A move turns over at most seven coins; the rightmost turned coin goes from heads\nto tails. Coins are numbered from 1, as in the source document.\n"
	if lang == "fr" {
		title, sec = "Mogul et le code de Golay", "Retourner au plus sept pièces, sur 24 pièces"
		text = "Un coup retourne au plus sept pièces ; la plus à droite passe de noir à blanc.\n"
	}
	sp := &job.Section{Title: sec, Text: text, Family: "coins", Play: "normal",
		Game: &job.CoinsSpec{Rule: "at-most", R: 7, N: 24, First: 1},
		Show: []string{"values", "code", "weights", "p-positions", "steiner", "automorphisms", "outcome", "moves", "plot"}, Position: []int{1, 2, 3}}
	return &job.Report{Title: title, Lang: lang, Sections: []*job.SectionResult{
		{Title: sec, Text: text, Spec: sp, Source: "D. Madore, « Le jeu de nim : thème et variations » (2017)", Results: job.Results{
			Values:        atMost(7, 24),
			Code:          &job.CodeInfo{Length: 24, Dimension: 12, Words: 4096, MinDistance: 8, Method: "enumeration"},
			Weights:       golayWeights,
			PPositions:    &job.PPositions{Count: 4096, Of: 1 << 24},
			Steiner:       &job.Steiner{Holds: true, T: 5, K: 8, V: 24, Lambda: 1},
			Automorphisms: "244823040",
			Outcome:       "N",
			// f(1) ⊕ f(2) ⊕ f(3) = 1 ⊕ 2 ⊕ 4 = 7 = f(1) ⊕ f(2) ⊕ f(3): turn all three.
			Moves:    [][]int{{}},
			Position: []int{1, 2, 3},
			First:    []int{1},
			Method:   "enumeration"}},
	}}
}

func wythoffReport() *job.Report {
	sp := &job.Section{Title: "Wythoff's game", Family: "wythoff", Play: "normal",
		Game: &job.WythoffSpec{Size: [2]int{10, 10}}, Show: []string{"table", "p-positions", "row-periods", "outcome", "moves", "plot"}, Position: []int{4, 6}}
	t := wythoffTable(10, 10)
	var list [][]int
	for a := range t {
		for b := range t[a] {
			if t[a][b] == 0 {
				list = append(list, []int{a, b})
			}
		}
	}
	return &job.Report{Title: "Wythoff's game", Sections: []*job.SectionResult{
		{Title: sp.Title, Spec: sp, Results: job.Results{
			Table:      t,
			PPositions: &job.PPositions{Count: uint64(len(list)), Of: 100, List: list},
			// MATH.md: row 0 has p = 1, row 1 p = 3 (observed).
			RowPeriods: []job.RowPeriod{{Row: 0, Period: 1, Start: 0}, {Row: 1, Period: 3, Start: 0}},
			Outcome:    "N",
			Moves:      wythoffMoves(t, 4, 6),
			Position:   []int{4, 6}}},
	}}
}

func wythoffMoves(t [][]uint64, a, b int) [][]int {
	out := [][]int{}
	for k := 1; k <= a; k++ {
		if t[a-k][b] == 0 {
			out = append(out, []int{a - k, b})
		}
	}
	for k := 1; k <= b; k++ {
		if t[a][b-k] == 0 {
			out = append(out, []int{a, b - k})
		}
	}
	for k := 1; k <= a && k <= b; k++ {
		if t[a-k][b-k] == 0 {
			out = append(out, []int{a - k, b - k})
		}
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out
}

func nimbersReport(lang string) *job.Report {
	sp := &job.Section{Title: "Nim-product, 0..15", Family: "nimbers", Game: &job.NimbersSpec{Op: "product", Size: 16}, Show: []string{"table", "plot"}}
	return &job.Report{Title: "Nim addition and multiplication", Lang: lang, Sections: []*job.SectionResult{
		{Title: sp.Title, Spec: sp, Results: job.Results{Table: nimProductTable(16)}},
	}}
}

// octalValues returns g(0..upto) of the octal code 0.d1d2… from the
// definition: d_k's bit 1 takes a whole heap of k, bit 2 leaves one heap,
// bit 4 two heaps.
func octalValues(digits []int, upto int) []uint64 {
	g := make([]uint64, upto+1)
	for n := 1; n <= upto; n++ {
		opts := map[uint64]bool{}
		for k, d := range digits {
			k++
			rest := n - k
			switch {
			case rest < 0:
			case rest == 0 && d&1 != 0:
				opts[0] = true
			case rest > 0 && d&2 != 0:
				opts[g[rest]] = true
			}
			if d&4 != 0 {
				for a := 1; a <= rest-a; a++ {
					opts[g[a]^g[rest-a]] = true
				}
			}
		}
		g[n] = mex(opts)
	}
	return g
}

// rareBy lists the positions rare under r's split, by the definition.
func rareBy(vals []uint64, mask uint64, domain bool, t int) []int {
	var out []int
	for n, v := range vals {
		ones := 0
		for x := v &^ mask; x != 0; x >>= 1 {
			ones += int(x & 1)
		}
		if !domain && ones%2 == 0 || domain && ones%2 == ((n-t)%2+2)%2 {
			out = append(out, n)
		}
	}
	return out
}

// rareReport: A. Flammenkamp's 0.051 to 100, past its period 48 from 48
// (domain type, t = 2, mask 0: sparse positions 0, 3, 7, 13, 17, 27, 37),
// and 0.16 to 150 with bit 0 ignored (Winning Ways ch. 4).
func rareReport() *job.Report {
	v051 := octalValues([]int{0, 5, 1}, 100)
	two := 2
	s1 := &job.Section{Title: "Octal game 0.051", Family: "octal", Play: "normal",
		Game: heapGame("octal", heap.Params{"code": "0.051", "upto": 100}), Show: []string{"values", "rare", "plot"}}
	p051 := rareBy(v051, 0, true, 2)
	v016 := octalValues([]int{1, 6}, 150)
	p016 := rareBy(v016, 1, false, 0)
	s2 := &job.Section{Title: "Octal game 0.16", Family: "octal", Play: "normal",
		Game: heapGame("octal", heap.Params{"code": "0.16", "upto": 150}), Show: []string{"rare", "plot"}}
	return &job.Report{Title: "Rare and common values", Lang: "en", Sections: []*job.SectionResult{
		{Title: s1.Title, Spec: s1, Source: "A. Flammenkamp, tables of octal games", Results: job.Results{
			Values: v051,
			Rare:   &job.Rare{Mask: 0, Type: "domain", T: &two, Count: len(p051), Positions: p051, CheckedTo: 100, Last: p051[len(p051)-1], Values: v051},
			Game:   "octal 0.051"}},
		{Title: s2.Title, Spec: s2, Source: "Winning Ways, ch. 4", Results: job.Results{
			Rare: &job.Rare{Mask: 1, Type: "range", Count: len(p016), Positions: p016, CheckedTo: 150, Last: p016[len(p016)-1], Values: v016},
			Game: "octal 0.16"}},
	}}
}

// heapGame is the game of a heap rule registered in package heap with the
// parameters p, checked and with their defaults filled in, as job.Parse
// makes it from a job file.
func heapGame(name string, p heap.Params) *job.HeapSpec {
	r, ok := heap.Lookup(name)
	if !ok {
		panic("reports test: no heap rule " + name)
	}
	if err := r.CheckParams(p); err != nil {
		panic(fmt.Sprintf("reports test: %s: %v", name, err))
	}
	return &job.HeapSpec{Rule: r, Params: p}
}
