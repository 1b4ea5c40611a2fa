package starrule

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
)

func loadRule(t *testing.T, file, name string, params map[string]any) *Game {
	t.Helper()
	g, err := Load(filepath.Join("testdata", file), name, params)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func values(t *testing.T, g heap.Game, upto int) []uint64 {
	t.Helper()
	vs, err := g.Values(upto, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// mex is the definition: the least value not among those of the options,
// computed here without the package's code.
func mex(upto int, options func(n int) [][]int) []uint64 {
	g := make([]uint64, upto+1)
	for n := range g {
		seen := map[uint64]bool{}
		for _, o := range options(n) {
			var x uint64
			for _, h := range o {
				x ^= g[h]
			}
			seen[x] = true
		}
		for seen[g[n]] {
			g[n]++
		}
	}
	return g
}

// TestLasker checks Lasker's Nim against its values (Winning Ways ch. 4):
// g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3. The
// rule lists its splits as tuples, larger part first.
func TestLasker(t *testing.T) {
	vs := values(t, loadRule(t, "lasker.star", "lasker", nil), 200)
	for n, v := range vs {
		want := uint64(n)
		switch n % 4 {
		case 3:
			want = uint64(n + 1)
		case 0:
			if n > 0 {
				want = uint64(n - 1)
			}
		}
		if v != want {
			t.Errorf("g(%d) = %d, want %d", n, v, want)
		}
	}
}

// TestSquares checks subtract-a-square against the definition (a plain
// mex loop) and its P-positions against OEIS A030193.
func TestSquares(t *testing.T) {
	g := loadRule(t, "squares.star", "squares", nil)
	vs := values(t, g, 210)
	want := mex(210, func(n int) [][]int {
		var out [][]int
		for k := 1; k*k <= n; k++ {
			out = append(out, []int{n - k*k})
		}
		return out
	})
	if !slices.Equal(vs, want) {
		t.Errorf("values\n%v\nwant\n%v", vs, want)
	}
	// OEIS A030193, the P-positions of subtract-a-square.
	a030193 := []int{0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119,
		124, 127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204, 210}
	var p []int
	for n, v := range vs {
		if v == 0 {
			p = append(p, n)
		}
	}
	if !slices.Equal(p, a030193) {
		t.Errorf("P-positions %v\nwant %v", p, a030193)
	}
}

// TestKayles: Kayles written as a rule has the values of the octal game
// 0.77.
func TestKayles(t *testing.T) {
	vs := values(t, loadRule(t, "kayles.star", "kayles", nil), 300)
	k, err := heap.ParseOctal("0.77")
	if err != nil {
		t.Fatal(err)
	}
	want := values(t, k, 300)
	if !slices.Equal(vs, want) {
		t.Errorf("values\n%v\nwant\n%v", vs, want)
	}
}

// TestOptions: options are sorted, each smaller part first, without zeros
// or repeats.
func TestOptions(t *testing.T) {
	g := loadRule(t, "kayles.star", "kayles", nil)
	got, err := g.OptionsErr(4)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{1, 1}, {1, 2}, {2}, {3}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("options of 4: %v, want %v", got, want)
	}
	if got := g.Options(1); !slices.EqualFunc(got, [][]int{{}}, slices.Equal) {
		t.Errorf("options of 1: %v, want [[]]", got)
	}
	if got := g.Options(0); len(got) != 0 {
		t.Errorf("options of 0: %v, want none", got)
	}
}

// TestParams: params are passed by name, lists included, and name the
// game.
func TestParams(t *testing.T) {
	g := loadRule(t, "squares.star", "squares_of", map[string]any{"roots": []int{1, 2}})
	if s := g.String(); s != "rule squares_of(roots=[1, 2]) from squares.star" {
		t.Errorf("String() = %q", s)
	}
	sub, err := heap.NewSubtraction([]int{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := values(t, g, 100), values(t, sub, 100); !slices.Equal(got, want) {
		t.Errorf("values\n%v\nwant\n%v", got, want)
	}
}

// TestExamples checks the rules of examples/rules.star against the
// definition.
func TestExamples(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "rules.star")
	tests := []struct {
		name    string
		params  map[string]any
		options func(n int) [][]int
	}{
		{"lasker", nil, func(n int) [][]int {
			var out [][]int
			for m := 0; m < n; m++ {
				out = append(out, []int{m})
			}
			for a := 1; 2*a <= n; a++ {
				out = append(out, []int{a, n - a})
			}
			return out
		}},
		{"squares", nil, func(n int) [][]int {
			var out [][]int
			for k := 1; k*k <= n; k++ {
				out = append(out, []int{n - k*k})
			}
			return out
		}},
		{"split_or_take", map[string]any{"k": 3}, func(n int) [][]int {
			var out [][]int
			for t := 1; t <= 3 && t <= n; t++ {
				out = append(out, []int{n - t})
			}
			for a := 1; 2*a < n; a++ {
				out = append(out, []int{a, n - a})
			}
			return out
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Load(file, tc.name, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := values(t, g, 150), mex(150, tc.options); !slices.Equal(got, want) {
				t.Errorf("values\n%v\nwant\n%v", got, want)
			}
		})
	}
	// k = 0 is Grundy's game.
	g, err := Load(file, "split_or_take", map[string]any{"k": 0})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := values(t, g, 200), values(t, heap.NewGrundysGame(), 200); !slices.Equal(got, want) {
		t.Errorf("split_or_take(k=0)\n%v\nwant Grundy's game\n%v", got, want)
	}
}

// TestLoadErrors: a broken rule is refused before any work, by a
// *heap.ParamError naming the key at fault, the .star file and its line.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, file, fn string
		params         map[string]any
		key, want      string
	}{
		{"syntax error", "syntax.star", "broken", nil, "file", "testdata/syntax.star:4: unexpected ']'"},
		{"no file", "nowhere.star", "f", nil, "file", "nowhere.star: no such file or directory"},
		{"missing function", "lasker.star", "laskr", nil, "name", "lasker.star defines no laskr; its functions: lasker"},
		{"not a function", "broken.star", "not_a_function", nil, "name", "not_a_function is an int, not a function"},
		{"no heap size", "broken.star", "no_heap", nil, "name", "broken.star:36: no_heap must take the heap size as its first parameter"},
		{"keyword-only heap size", "broken.star", "keyword_only", nil, "name", "broken.star:39: keyword_only must take the heap size"},
		{"unknown param", "lasker.star", "lasker", map[string]any{"k": 3}, "params", "lasker.star:4: lasker(n) takes no parameter k"},
		{"missing param", "squares.star", "squares_of", nil, "params", "squares.star:7: squares_of(n, roots, extra) needs roots: give it in params"},
		{"the heap size as a param", "squares.star", "squares_of", map[string]any{"n": 3, "roots": []int{1}}, "params", "n is the heap size, not a parameter to give"},
		{"a bad param value", "squares.star", "squares_of", map[string]any{"roots": 1.5}, "params", "roots: want a whole number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(filepath.Join("testdata", tc.file), tc.fn, tc.params)
			var pe *heap.ParamError
			if !errors.As(err, &pe) || pe.Key != tc.key || !strings.Contains(pe.Msg, tc.want) {
				t.Fatalf("got %#v\nwant a ParamError on %s containing %q", err, tc.key, tc.want)
			}
		})
	}
}

// TestRuleErrors: what a rule returns is checked heap by heap; the error
// of Values (and of OptionsErr) names the rule, the heap and what is
// wrong, or the file and line of a Starlark error.
func TestRuleErrors(t *testing.T) {
	tests := []struct{ fn, want string }{
		{"too_big", "too_big(1): option 1, [1]: a heap of 1 is not smaller than 1"},
		{"from_empty", "from_empty(0): returned [[]] for a heap of 0, which has no options"},
		{"not_a_list", "not_a_list(0): returned an int -1, not a list of options"},
		{"not_a_list_option", "not_a_list_option(1): option 1 is an int 0, not a list of heaps (write [0] for one heap"},
		{"negative", "negative(3): option 1, [-1]: a heap of -1 is not smaller than 3"},
		{"fails", "fails(3): testdata/broken.star:20: floored division by zero"},
	}
	for _, tc := range tests {
		t.Run(tc.fn, func(t *testing.T) {
			g := loadRule(t, "broken.star", tc.fn, nil)
			_, err := g.Values(10, heap.Limits{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "starrule: rule "+tc.fn+"() from broken.star: ") {
				t.Fatalf("got %v\nwant %q", err, tc.want)
			}
			if g.Err() == nil {
				t.Error("Err() is nil after a failed Values")
			}
			// Options fails the same way on the same heap, and says so.
			n := 0
			for ; n <= 10 && g.Options(n) != nil; n++ {
			}
			if _, err := g.OptionsErr(n); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("OptionsErr(%d): %v", n, err)
			}
		})
	}
}

// TestStepBudget: a loop that never ends, in one call or over the heaps,
// stops at lim.MaxSteps with an error that wraps heap.ErrTooManySteps.
func TestStepBudget(t *testing.T) {
	tests := []struct {
		file, fn, want string
		upto           int
	}{
		{"broken.star", "forever", "forever(0): testdata/broken.star:25: ran past the budget of 100000 steps", 10},
		{"lasker.star", "lasker", "steps", 1000},
	}
	for _, tc := range tests {
		t.Run(tc.fn, func(t *testing.T) {
			g := loadRule(t, tc.file, tc.fn, nil)
			_, err := g.Values(tc.upto, heap.Limits{MaxSteps: 100000})
			if !errors.Is(err, heap.ErrTooManySteps) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %q wrapping heap.ErrTooManySteps", err, tc.want)
			}
		})
	}
	// Options stops a call of its own at its budget (here lowered by the
	// thread factory, as a notebook's would).
	forever := loadRule(t, "broken.star", "forever", nil)
	var budget uint64
	g, err := FromCallable(forever.fn, nil, func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
		budget = lim.MaxSteps
		lim.MaxSteps = 100000
		return sandbox.NewThread(ctx, "forever", lim)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.OptionsErr(1); !errors.Is(err, sandbox.ErrSteps) || !errors.Is(err, heap.ErrTooManySteps) {
		t.Errorf("OptionsErr: %v", err)
	}
	if budget != CallSteps {
		t.Errorf("Options asked for %d steps, want CallSteps", budget)
	}
}

// TestPositions: Values refuses upto at lim.MaxPositions heaps, as package
// heap does.
func TestPositions(t *testing.T) {
	g := loadRule(t, "squares.star", "squares", nil)
	_, err := g.Values(1000, heap.Limits{MaxPositions: 1000})
	if !errors.Is(err, game.ErrTooManyPositions) || !strings.Contains(err.Error(), "values of heaps 0..1000 are 1001 positions, more than the limit of 1000") {
		t.Fatalf("got %v", err)
	}
	if _, err := g.Values(-1, heap.Limits{}); err == nil {
		t.Error("negative upto accepted")
	}
}

// TestCancel: a cancelled context stops the work between heaps and inside
// a long call of the function: the error wraps context.Canceled, and the
// thread stopped long before the loop's end.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := loadRule(t, "squares.star", "squares", nil)
	if _, err := g.Values(100, heap.Limits{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}

	// slow(n) prints once it starts a loop of 10^9 steps; the print
	// cancels the context, which must stop the loop.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var th *starlark.Thread
	threads := func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
		var release func()
		th, release = sandbox.NewThread(ctx, "slow", lim)
		th.Print = func(*starlark.Thread, string) { cancel() }
		return th, release
	}
	slow := loadRule(t, "broken.star", "slow", nil)
	g, err := FromCallable(slow.fn, nil, threads)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Values(10, heap.Limits{Context: ctx, MaxSteps: 1 << 40})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "slow(5): testdata/broken.star:") {
		t.Fatalf("got %v, want slow(5) interrupted", err)
	}
	if steps := th.ExecutionSteps(); steps > 1e8 {
		t.Errorf("the loop ran %d steps after the cancel", steps)
	}
	// The values before the heap that stopped are kept.
	if got := values(t, loadRule(t, "broken.star", "slow", nil), 4); !slices.Equal(got, []uint64{0, 1, 2, 3, 4}) {
		t.Errorf("values of slow up to 4: %v", got)
	}
}

// TestFromCallable: a rule defined elsewhere (a notebook cell) with its
// parameters as Starlark values.
func TestFromCallable(t *testing.T) {
	th, release := sandbox.NewThread(context.Background(), "cell", sandbox.Limits{})
	defer release()
	globals, err := sandbox.ExecFile(th, "cell 1", "def take(n, k):\n    return [[n - t] for t in range(1, k + 1) if t <= n]\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := FromCallable(globals["take"].(starlark.Callable), []starlark.Tuple{{starlark.String("k"), starlark.MakeInt(3)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.String(); s != "rule take(k=3) from cell 1" {
		t.Errorf("String() = %q", s)
	}
	if got := values(t, g, 9); !slices.Equal(got, []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}) {
		t.Errorf("values %v", got)
	}
	if _, err := FromCallable(globals["take"].(starlark.Callable), nil, nil); err == nil || !strings.Contains(err.Error(), "needs k") {
		t.Errorf("missing k: %v", err)
	}
}

// TestRegistered: the rule is registered as "rule", and its Check refuses
// a broken file before any work.
func TestRegistered(t *testing.T) {
	r, ok := heap.Lookup("rule")
	if !ok {
		t.Fatal("no rule named rule")
	}
	p := heap.Params{"file": filepath.Join("testdata", "squares.star"), "name": "squares_of", "params": map[string]any{"roots": []int{1, 2, 3}}}
	g, err := r.NewGame(p)
	if err != nil {
		t.Fatal(err)
	}
	if p.Int("upto") != 100 {
		t.Errorf("upto defaults to %d", p.Int("upto"))
	}
	if got := g.String(); got != "rule squares_of(roots=[1, 2, 3]) from squares.star" {
		t.Errorf("String() = %q", got)
	}
	err = r.CheckParams(heap.Params{"file": filepath.Join("testdata", "syntax.star"), "name": "broken"})
	var pe *heap.ParamError
	if !errors.As(err, &pe) || pe.Key != "file" || !strings.Contains(pe.Msg, "syntax.star:4:") {
		t.Errorf("CheckParams of a broken file: %#v", err)
	}
}
