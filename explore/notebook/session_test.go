package notebook

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
)

// TestBuiltins runs one cell per case and compares its result (text/plain).
func TestBuiltins(t *testing.T) {
	tests := []struct {
		name, code, want string
	}{
		{"arithmetic", "1 + 2", "3"},
		{"string result is a repr", `"P"`, `"P"`},
		{"none is no result", "None", ""},
		{"assignment is no result", "x = 1", ""},
		// seed 000 (Madore 2017), slide "f_r(n)" table; MATH.md, turn ≤ r coins.
		{"coins at-most table", "[coins(r=r).values(10) for r in range(4, 10)]",
			"[[1, 2, 4, 8, 15, 16, 32, 51, 64, 85], [1, 2, 4, 8, 16, 31, 32, 64, 103, 128], [1, 2, 4, 8, 16, 32, 63, 64, 128, 256], " +
				"[1, 2, 4, 8, 16, 32, 64, 127, 128, 256], [1, 2, 4, 8, 16, 32, 64, 128, 255, 256], [1, 2, 4, 8, 16, 32, 64, 128, 256, 511]]"},
		{"coins mock turtles", "coins(r=3).values(10)", "[1, 2, 4, 7, 8, 11, 13, 14, 16, 19]"},
		{"coins exactly from 0", `coins(rule="exactly", r=3, first=0).values(7)`, "[0, 0, 1, 2, 4, 7, 8]"},
		{"coins ruler", `coins(rule="ruler").values(8)`, "[1, 2, 1, 4, 1, 2, 1, 8]"},
		// MATH.md: Golay code, weight distribution 1, 759, 2576, 759, 1.
		{"golay weights", "w = coins(r=7, n=24).weights()\n(w[0], w[8], w[12], w[16], w[24], len(w))", "(1, 759, 2576, 759, 1, 25)"},
		{"golay steiner", "coins(r=7, n=24, first=1).steiner()", "steiner(holds=True, t=5, k=8, v=24, lambda=1)"},
		{"golay automorphisms", "coins(r=7, n=24).automorphisms() == 244823040", "True"},
		{"hamming p-positions", "coins(r=2, n=7).p_positions().count", "16"},
		{"coins outcome", "coins(r=2, n=7).outcome([1, 2, 3])", `"P"`},
		{"coins moves", "coins(r=2).moves((3,))", "[()]"},
		{"coins grundy", "coins(r=3).grundy((2, 4))", "5"},
		// MATH.md: Nim (1,3,5,7): 48 P-positions of 384, and a P-position.
		{"nim p-positions", "pp = nim(1, 3, 5, 7).p_positions()\n(pp.count, pp.of)", "(48, 384)"},
		{"nim outcome", "nim(1, 3, 5, 7).outcome()", `"P"`},
		{"nim moves", "nim(1, 3, 5, 6).moves()", "[(0, 3, 5, 6), (1, 2, 5, 6), (1, 3, 4, 6)]"},
		{"nim list heaps", "nim([2, 3]).grundy()", "1"},
		{"nim values bounded", "nim(max_take=2).values(6)", "[0, 1, 2, 0, 1, 2, 0]"},
		{"nim misere", `nim(1, 1, play="misere").outcome()`, `"N"`},
		{"nim options", "nim(1, 2).options()", "[(0, 2), (1, 0), (1, 1)]"},
		// MATH.md: subtraction {1,2,3} gives n mod 4.
		{"subtraction values", "subtraction([1, 2, 3]).values(9)", "[0, 1, 2, 3, 0, 1, 2, 3, 0, 1]"},
		{"subtraction period", "p = subtraction([1, 3, 4]).period()\n(p.proven, p.preperiod, p.period)", "(True, 0, 7)"},
		{"subtraction all-but", "subtraction(all_but=[1]).values(5)", "[0, 0, 1, 1, 2, 2]"},
		// MATH.md: Kayles, period 12 from 71, proof uses g up to 167.
		{"kayles period", `p = octal("0.77").period(200)` + "\n(p.proven, p.preperiod, p.period, p.checked_to)", "(True, 71, 12, 167)"},
		// A. Flammenkamp's table of 0.051: domain type, t = 2, mask 0, sparse
		// positions 0, 3, 7, 13, 17, 27, 37.
		{"0.051 rare", `r = octal("0.051").rare(200)` + "\n(r.type, r.t, r.mask, r.count, r.positions, r.checked_to)", `("domain", 2, 0, 7, [0, 3, 7, 13, 17, 27, 37], 200)`},
		{"0.16 rare", `r = octal("0.16", upto=2000).rare()` + "\n(r.type, r.mask, r.count, r.positions[-1])", `("range", 1, 50, 1244)`},
		{"hex rare", `hex_game("0.f").rare(40).count`, "0"},
		{"dawson values", `octal(".07").values(10)`, "[0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3]"},
		{"octal moves split", `octal("0.77").moves([5])`, "[(2, 2)]"},
		{"hex values", `hex_game("0.f").values(6)`, "[0, 1, 0, 1, 0, 1, 0]"},
		{"hexa alias", `hexa("0.f") != None`, "True"},
		// MATH.md: Wythoff P-positions with heaps ≤ 5.
		{"wythoff p-positions", "list(wythoff(6, 6).p_positions())", "[(0, 0), (1, 2), (2, 1), (3, 5), (5, 3)]"},
		{"wythoff table row 1", "wythoff(5).table()[1]", "[1, 2, 0, 4, 5]"},
		{"wythoff outcome", "wythoff().outcome((3, 5))", `"P"`},
		{"wythoff grundy", "wythoff().grundy((1, 3))", "4"},
		// MATH.md: Nim × Nim, value a ⊗ b (seed 000).
		{"product table", `product(coins(rule="exactly", r=2, first=0), coins(rule="exactly", r=2, first=0), size=[5, 5]).table()[4]`, "[0, 4, 8, 12, 6]"},
		{"nimbers table row 2", `nimbers(op="product", size=8)[2]`, "[0, 2, 3, 1, 8, 10, 11, 9]"},
		{"nimber product", "nimber(2) * 3", "*1"},
		{"nimber square", "nimber(4) * nimber(4)", "*6"},
		{"nimber sum", "nimber(5) + 3", "*6"},
		{"nimber right operand", "3 * nimber(2)", "*1"},
		{"nimber division", "nimber(1) / 2", "*3"},
		{"nimber power", "nimber(2).pow(3)", "*1"},
		{"nimber attrs", "(nimber(2).inv(), nimber(2).sqrt(), nimber(7).value)", "(*3, *3, 7)"},
		{"sum of nimbers", "sum([nimber(1), nimber(3), nimber(5), nimber(7)], nimber(0))", "*0"},
		{"sum", "sum(range(5))", "10"},
		{"nimber equality", "nimber(3) == nimber(3)", "True"},
		{"nim_mul", "nim_mul(4, 2)", "8"},
		{"nim_add", "nim_add(1, 3, 5, 7)", "0"},
		{"nim_inv", "nim_inv(2)", "3"},
		{"nim_sqrt", "nim_sqrt(2)", "3"},
		{"nim_pow", "nim_pow(2, 2)", "3"},
		{"mex", "mex([0, 1, 3])", "2"},
		{"result as list", "v = coins(r=2).values(4)\n(len(v), v[-1], list(v) == [1, 2, 3, 4], 3 in v)", "(4, 4, True, True)"},
		{"family repr", `coins(rule="at-most", r=7, n=24)`, "coins(rule=\"at-most\", r=7, n=24)\nturn at most 7 coins"},
		{"set and while", "s = set([1, 2])\nn = 0\nwhile n < 3:\n    n += 1\nlen(s) + n", "5"},
		{"recursion", "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nfact(10)", "3628800"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			got, _, err := run(t, s, tc.code)
			if err != nil {
				t.Fatalf("%s: %v", tc.code, err)
			}
			if tc.name == "family repr" {
				got, _, _ = strings.Cut(got, "\n")
				tc.want, _, _ = strings.Cut(tc.want, "\n")
			}
			if got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.code, got, tc.want)
			}
		})
	}
}

func TestGlobalsPersist(t *testing.T) {
	s := newSession(t)
	got, out, err := run(t, s, "x = 20", "x = x + 1\nprint('x is', x)\nx * 2")
	if err != nil || got != "42" || out != "x is 21\n" {
		t.Fatalf("got %q, %q, %v", got, out, err)
	}
	if g := s.Globals(); len(g) != 1 || g[0] != "x" {
		t.Errorf("Globals() = %v, want [x]", g)
	}
}

func TestDisplay(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	d, err := s.Execute(context.Background(), "display(nim(1, 2).p_positions(), 3)\nNone", rec)
	if err != nil || d != nil {
		t.Fatalf("got %v, %v", d, err)
	}
	if len(rec.displays) != 2 {
		t.Fatalf("%d displays, want 2", len(rec.displays))
	}
	if _, ok := rec.displays[0].Data["application/json"]; !ok {
		t.Errorf("a result has no application/json: %v", rec.displays[0].Data)
	}
	if rec.displays[1].Data["text/plain"] != "3" {
		t.Errorf("display(3) = %v", rec.displays[1].Data)
	}
}

// fakeRenderer marks the bundles it renders.
type fakeRenderer struct{ got []any }

func (f *fakeRenderer) Bundle(v any) (*kernel.Display, error) {
	f.got = append(f.got, v)
	return &kernel.Display{Data: map[string]any{"text/html": "<table></table>"}}, nil
}

func TestRenderer(t *testing.T) {
	r := &fakeRenderer{}
	s, err := New(Options{Renderer: r})
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Execute(context.Background(), `octal("0.77").values(10)`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Data["text/html"] != "<table></table>" || d.Data["text/plain"] == nil {
		t.Errorf("bundle %v: want the renderer's html over the text fallback", d.Data)
	}
	if len(r.got) != 1 {
		t.Fatalf("renderer called %d times", len(r.got))
	}
}

func TestObservedPeriod(t *testing.T) {
	tests := []struct {
		name  string
		vs    []uint64
		n0, p int
		ok    bool
	}{
		{"constant", []uint64{0, 0, 0}, 0, 1, true},
		{"n mod 4", []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 0, 4, true},
		{"after exceptions", []uint64{5, 7, 1, 2, 1, 2, 1, 2, 1, 2}, 2, 2, true},
		// The last exception is the last n with g(n+p) ≠ g(n).
		{"late exception", []uint64{1, 2, 1, 2, 9, 2, 1, 2, 1, 2, 1, 2}, 5, 2, true},
		{"too few repeats", []uint64{0, 1, 2, 0, 1}, 0, 0, false},
		{"nim", []uint64{0, 1, 2, 3, 4, 5}, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n0, p, ok := heap.ObservedPeriod(tc.vs, minRepeats)
			if ok != tc.ok || (ok && (n0 != tc.n0 || p != tc.p)) {
				t.Errorf("got n0 %d p %d ok %v, want %d %d %v", n0, p, ok, tc.n0, tc.p, tc.ok)
			}
		})
	}
}

// TestUserGamePlot: plot(upto) of a game on the integers hands the
// renderer a values section with a plot, as heap games do.
func TestUserGamePlot(t *testing.T) {
	r := &fakeRenderer{}
	s, err := New(Options{Renderer: r})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), `game(moves=lambda n: [n - k for k in (1, 3, 4) if k <= n]).plot(30)`, nil); err != nil {
		t.Fatal(err)
	}
	sr, ok := r.got[len(r.got)-1].(*job.SectionResult)
	if !ok || len(sr.Results.Values) != 31 || !slices.Contains(sr.Spec.Show, "plot") {
		t.Fatalf("renderer got %#v", r.got[len(r.got)-1])
	}
	for _, bad := range []string{`game(moves=lambda n: []).values(-1)`, `game(moves=lambda n: [], play="misere").values(3)`, `game(moves=lambda p: [p[0]]).values(2)`} {
		if _, err := s.Execute(context.Background(), bad, nil); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, code  string
		ename, want string
	}{
		{"undefined name", "x = 1\ny = z + 1", "NameError", "line 2: name z is not defined"},
		{"syntax", "x = (1,\n", "SyntaxError", "line 2"},
		{"runtime in function", "def f(n):\n    return n // 0\n\nf(3)", "Error", "line 2:"},
		{"bad family argument", `coins(rule="sideways", r=2)`, "Error", `unknown rule "sideways"`},
		{"missing r", `coins(n=5)`, "Error", "how many coins does a move turn?"},
		{"octal code", `octal("0.9")`, "Error", "octal"},
		{"analysis does not apply", `wythoff().weights()`, "Error", "weights does not apply to wythoff"},
		{"rare does not apply", `subtraction([1, 2]).rare()`, "Error", "rare does not apply to subtraction"},
		{"values under misere", `nim(1, 2, play="misere").values(5)`, "Error", "normal-play"},
		{"position needed", `octal("0.77").outcome()`, "Error", "needs a position"},
		{"coin out of range", `coins(r=2, n=5).outcome([9])`, "Error", "numbered 1..5"},
		{"nim_inv zero", "nim_inv(0)", "Error", "0 has no nim-inverse"},
		{"nimber range", "nimber(-1)", "Error", "not a 64-bit nimber"},
		{"list position", "game(moves=lambda p: [[p]], start=0).grundy()", "Error", "use tuples, e.g. (0,)"},
		{"list start", "game(moves=lambda p: [], start=[1, 2])", "Error", "use tuples, e.g. (1, 2)"},
		{"moves returns None", "def f(p):\n    pass\ngame(moves=f, start=0).grundy()", "Error", "returned None"},
		{"error in moves", "def f(p):\n    return [p // 0]\ng = game(moves=f, start=1)\ng.grundy()", "Error", "line 2:"},
		{"limit named", `coins(r=7, n=40).weights()`, "Error", "start nimbook with a larger --max-positions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			if tc.name == "limit named" {
				run(t, s, "limits(positions=1000)")
			}
			_, _, err := run(t, s, tc.code)
			var ce *kernel.CellError
			if !errors.As(err, &ce) {
				t.Fatalf("%s: got %v, want a cell error", tc.code, err)
			}
			if ce.Name != tc.ename || !strings.Contains(ce.Value, tc.want) {
				t.Errorf("%s: got %s: %s, want %s containing %q", tc.code, ce.Name, ce.Value, tc.ename, tc.want)
			}
			for _, l := range append([]string{ce.Value}, ce.Traceback...) {
				if strings.Contains(l, "goroutine") || strings.Contains(l, ".go:") {
					t.Errorf("Go trace leaked: %q", l)
				}
			}
		})
	}
}

func TestTracebackAcrossCells(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, "def f(n):\n    return 1 // n", "x = 1\nf(0)")
	var ce *kernel.CellError
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ce.Value, "line 2 (in f, cell 1 line 2):") {
		t.Errorf("value %q", ce.Value)
	}
	if len(ce.Traceback) != 4 {
		t.Errorf("traceback %q", ce.Traceback)
	}
}

// streamHook is a cell's output that calls hook on each stream write.
type streamHook struct {
	recorder
	hook func()
}

func (o *streamHook) Stream(name, text string) {
	o.recorder.Stream(name, text)
	o.hook()
}

// TestInterrupt: an endless loop stops when interrupted (its print is the
// test's cue: the loop runs), and the session survives with what it did.
// Interrupted, not the step budget's error, shows that the interrupt
// stopped it; the minute is a hang guard only.
func TestInterrupt(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &streamHook{hook: cancel}
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "n = 0\nwhile True:\n    n += 1\n    if n == 1000:\n        print(n)", out)
		done <- err
	}()
	select {
	case err := <-done:
		var ce *kernel.CellError
		if !errors.As(err, &ce) || ce.Name != "Interrupted" {
			t.Fatalf("got %v, want Interrupted", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the cell did not stop")
	}
	// The session survives, with what the cell did.
	got, _, err := run(t, s, "n >= 1000")
	if err != nil || got != "True" {
		t.Fatalf("next cell: %q, %v", got, err)
	}
}

func TestInterruptUserGame(t *testing.T) {
	s := newSession(t)
	// A game far too large to finish: the move function is Starlark, so
	// the thread's cancellation stops it. Interrupted once it has spent
	// 100 ms of processor time, it spends little more.
	r := stopcheck.InterruptBusy(100*time.Millisecond, time.Minute, func(ctx context.Context) error {
		_, err := s.Execute(ctx, "game(moves=lambda p: [p + 1] if p < 10000000 else [], start=0, max_positions=100000000).grundy()", nil)
		return err
	})
	switch {
	case r.Hung:
		t.Fatal("still running a minute after the interrupt")
	case r.Early:
		t.Fatalf("finished before the interrupt: %v", r.Err)
	}
	var ce *kernel.CellError
	if !errors.As(r.Err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("got %v, want Interrupted", r.Err)
	}
	if r.CPUAfter > time.Second {
		t.Errorf("%v of processor time after the interrupt", r.CPUAfter)
	}
}

func TestStepBudget(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, "limits(steps=10000)\nwhile True:\n    pass")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || ce.Name != "StepLimit" || !strings.Contains(ce.Value, "--max-steps") {
		t.Fatalf("got %v", err)
	}
	got, _, err := run(t, s, "sum([i for i in range(100)])")
	if err != nil || got != "4950" {
		t.Fatalf("next cell: %q, %v", got, err)
	}
}

func TestUserGame(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, `
def take(n):
    return [n - s for s in (1, 2, 3) if s <= n]
g = game(moves=take, start=10)
`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ code, want string }{
		// MATH.md: subtraction {1,2,3} gives n mod 4.
		{"[g.grundy(n) for n in range(12)]", "[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]"},
		{"g.grundy()", "2"},
		{"g.outcome()", `"N"`},
		{"g.outcome(8)", `"P"`},
		{"list(g.moves())", "[8]"},
		{"g.moves(4)", "[]"},
		{"g.options(2)", "[1, 0]"},
		{"list(g.p_positions())", "[0, 4, 8]"},
		{"g.p_positions().of", "11"},
		{"len(g.positions())", "11"},
		// Sprague–Grundy: the sum with Nim is the nim-sum.
		{"(g + nim(5)).grundy((10, (5,)))", "7"},
		{"(g + nim(2)).outcome((10, (2,)))", `"P"`},
		{"(g + nim(2)).start", "(10, (2,))"},
		{"(nim(3) + g).grundy(((3,), 7))", "0"},
		{"(g + g).grundy((5, 6))", "3"},
		{"(g + subtraction([1, 2, 3])).grundy((5, (6,)))", "3"},
		{"g.graph(3).nodes", "4"},
		// Positions are the integers: the values of heaps 0..upto.
		{"list(g.values(11))", "[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]"},
		// Its period is seen, not proven: the moves are a black box.
		{"g.period(40).period", "4"},
		{"g.period(40).proven", "False"},
		{"g.period(40).method", `"observed"`},
		{"game(moves=lambda n: list(range(n))).period(30).proven", "False"},
		{`"digraph" in g.graph(3).dot`, "True"},
		{`game(moves=take, start=5, play="misere").outcome(1)`, `"P"`},
		// A played game: 10 → 9 gives away the win (8 was the move), the
		// rest is good play, and 4 → 0 takes 4, which is not allowed.
		{"g.record([10, 9, 8, 5, 4, 0]).mistakes", "1"},
		{"g.record([10, 9, 8, 5, 4, 0]).illegal", "5"},
		{"g.record([10, 9, 8, 5, 4, 0])[0].missed", `[8]`},
		{"[m.to for m in g.record([10, 9, 8])]", `[9, 8]`},
		{"[m.after for m in g.record([10, 9, 8, 5, 4, 0])]", `["N", "P", "N", "P", "P"]`},
		{"g.record([9, 8, 7, 4, 3, 0]).winner", "1"}, // player 1 takes the last token
		// In a sum, (10, (2,)) is a P-position: 2 ⊕ 2 = 0. From (8, (2,)),
		// worth 0 ⊕ 2, the wins empty the heap or bring the game to 6.
		{"(g + nim(2)).record([(10, (2,)), (8, (2,)), (8, (1,))])[1].missed", `[(6, (2,)), (8, (0,))]`},
		{`game(moves=lambda p: [(p[0], p[1] - 1)] if p[1] else [], start=("a", 3)).grundy()`, "1"},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			got, _, err := run(t, s, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestUserGameCrossCheck(t *testing.T) {
	// The user-defined subtraction game agrees with the built-in one on
	// every small heap.
	s := newSession(t)
	got, _, err := run(t, s, `
S = [1, 3, 4]
g = game(moves=lambda n: [n - s for s in S if s <= n])
[g.grundy(n) for n in range(60)] == list(subtraction(S).values(59))`)
	if err != nil || got != "True" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestCycle(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, "g = game(moves=lambda p: [(p + 1) % 3], start=0)\ng.grundy()")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "cycle") || !strings.Contains(ce.Value, "0 → 1 → 2 → 0") {
		t.Fatalf("got %v", err)
	}
}

func TestPositionBudget(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, "game(moves=lambda p: [p + 1] if p < 1000 else [], start=0, max_positions=100).grundy()")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "more than 100 positions") || !strings.Contains(ce.Value, "max_positions") {
		t.Fatalf("got %v", err)
	}
}

func TestComplete(t *testing.T) {
	s := newSession(t)
	run(t, s, "kayles = octal('0.77')\nnumber = 3")
	tests := []struct {
		code       string
		want       []string
		start, end int
	}{
		{"coi", []string{"coins"}, 0, 3},
		{"x = nim_", []string{"nim_add", "nim_inv", "nim_mul", "nim_pow", "nim_sqrt"}, 4, 8},
		{"kayles.pe", []string{"period"}, 7, 9},
		{"kayles.", nil, 7, 7}, // checked below: every method
		{"numb", []string{"number"}, 0, 4},
		{"wh", []string{"while"}, 0, 2},
		{"nope.x", nil, 6, 6},
	}
	for _, tc := range tests {
		got, start, end := s.Complete(tc.code, len(tc.code))
		if tc.code == "kayles." {
			if len(got) < 5 || start != 7 {
				t.Errorf("%q: %v", tc.code, got)
			}
			continue
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") || start != tc.start || end != tc.end {
			t.Errorf("%q: got %v [%d:%d], want %v [%d:%d]", tc.code, got, start, end, tc.want, tc.start, tc.end)
		}
	}
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	run(t, s, "def f(a, b):\n    \"Adds.\"\n    return a + b\nk = octal('0.77')")
	tests := []struct {
		code   string
		cursor int
		want   string
	}{
		{"coins(r=3)", 2, "coin-turning game"},
		{"coins(r=3)", 7, "coin-turning game"}, // inside the call
		{"f(1, 2)", 0, "def f(a, b)"},
		{"k.period()", 4, "periodicity certificate"},
		{"k", 1, "octal game"},
		{"len", 1, "Starlark built-in"},
	}
	for _, tc := range tests {
		got, ok := s.Inspect(tc.code, tc.cursor)
		if !ok || !strings.Contains(got, tc.want) {
			t.Errorf("Inspect(%q, %d) = %q, %v; want %q", tc.code, tc.cursor, got, ok, tc.want)
		}
	}
	if _, ok := s.Inspect("unknown_name", 3); ok {
		t.Error("an unknown name was found")
	}
}

// TestIsComplete: what a console needs to know to run a cell or read
// more of it.
func TestIsComplete(t *testing.T) {
	s := newSession(t)
	tests := []struct{ code, status, indent string }{
		{"x = 1", "complete", ""},
		{"x = (1,", "incomplete", ""},
		{"for i in range(3):", "incomplete", "    "},
		{"def f():\n    return 1", "incomplete", "    "},
		{"def f():\n    return 1\n\n", "complete", ""},
		{"x = [1,\n  2", "incomplete", "  "},
		{"x = )", "invalid", ""},
		{`s = "abc`, "incomplete", ""},
		// A block ends with a blank line, even one of blanks only (what
		// jupyter console sends when Enter meets its own indentation).
		{"def f(n):\n    return n + 1\n    ", "complete", ""},
		{"def f(n):\n    return n + 1\n", "complete", ""},
		{"def f(n):\n    return n + 1\n\t", "complete", ""},
		{"def f(n):\n    if n:\n        return n\n        ", "complete", ""},
		{"def f(n):\n    ", "incomplete", "    "},
		{"def f(n):\n    return n + 1", "incomplete", "    "},
		{"x = [1,\n  2,\n  ", "incomplete", "  "},
		// Magics: judged by the code they run.
		{"%who", "complete", ""},
		{"%limits", "complete", ""},
		{"%time x = 1", "complete", ""},
		{"%time for i in range(3):", "incomplete", "    "},
		{"%%time", "incomplete", ""},
		{"%%time\nfor i in range(3):\n    x = i", "incomplete", "    "},
		{"%%time\nfor i in range(3):\n    x = i\n    ", "complete", ""},
		{"%timeit 1", "complete", ""},
	}
	for _, tc := range tests {
		status, indent := s.IsComplete(tc.code)
		if status != tc.status || indent != tc.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", tc.code, status, indent, tc.status, tc.indent)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	tests := []struct{ code, want string }{
		{"1 + 2", "3"},
		{"coins(r=2).values(3)", `{"values":[1,2,3]}`},
		{`{"a": (1, nimber(3)), "b": None}`, `{"a":[1,3],"b":null}`},
		{"x = 1", "null"},
		{"1 << 70", "1180591620717411303424"},
	}
	for _, tc := range tests {
		s := newSession(t)
		v, err := s.EvalJSON(context.Background(), tc.code, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.code, err)
		}
		b, _ := json.Marshal(v)
		if string(b) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.code, b, tc.want)
		}
	}
}
