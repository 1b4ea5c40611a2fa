package notebook

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/kernel"
)

// takeaway is a test-only heap rule: take 1 to k tokens from one heap,
// registered below with no line of the notebook's own code knowing it.
// Its values are n mod (k + 1) (Winning Ways ch. 2, the subtraction game
// {1..k}).
type takeaway struct{ k int }

func (g takeaway) String() string { return fmt.Sprintf("take-away %d", g.k) }

func (g takeaway) Options(n int) [][]int {
	out := [][]int{}
	for t := 1; t <= g.k && t <= n; t++ {
		if n == t {
			out = append(out, []int{})
		} else {
			out = append(out, []int{n - t})
		}
	}
	return out
}

func (g takeaway) Values(upto int, lim heap.Limits) ([]uint64, error) {
	if upto >= lim.MaxPositions && lim.MaxPositions > 0 {
		return nil, fmt.Errorf("heap: take-away: values up to %d: %w", upto, game.ErrTooManyPositions)
	}
	vs := make([]uint64, upto+1)
	for n := range vs {
		seen := map[uint64]bool{}
		for _, o := range g.Options(n) {
			var v uint64
			for _, h := range o {
				v ^= vs[h]
			}
			seen[v] = true
		}
		for seen[vs[n]] {
			vs[n]++
		}
	}
	return vs, nil
}

const takeawayHelp = "Take 1 to k tokens from one heap (a test rule). Methods: values(upto), outcome(p), moves(p)."

func init() {
	heap.Register(&heap.Rule{
		Name:    "test-takeaway",
		Builtin: "test_takeaway",
		Order:   1000,
		Text:    map[string]string{"en": "take 1 to k tokens"},
		Params: []heap.Param{
			{Key: "most-taken", Kind: heap.Int, Min: 1, Max: 50, What: "the most one may take", Example: "3", Positional: true,
				Missing: "how many may be taken? e.g. most-taken: 3"},
			heap.UptoParam(12),
		},
		Signature: `test_takeaway(most_taken, upto=12, play="normal", position=None)`,
		Help:      takeawayHelp,
		New:       func(p heap.Params) (heap.Game, error) { return takeaway{p.Int("most-taken")}, nil },
	})
}

// TestRegisteredRule: a rule registered in the heap registry is a
// built-in with its parameters, analyses, help and completion, with no
// edit to the notebook.
func TestRegisteredRule(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"values", "test_takeaway(3).values(9)", "[0, 1, 2, 3, 0, 1, 2, 3, 0, 1]"},
		{"values to its upto", "test_takeaway(2).values()", "[0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]"},
		{"keyword", "test_takeaway(most_taken=2, upto=4).values()", "[0, 1, 2, 0, 1]"},
		{"outcome", "test_takeaway(3).outcome((4, 4))", `"P"`},
		{"position", "test_takeaway(3, position=(5, 2)).outcome()", `"N"`},
		{"moves", "test_takeaway(3, position=(5, 2)).moves()", "[(2, 2), (5, 1)]"},
		{"misere", `test_takeaway(3, play="misere").outcome((1,))`, `"P"`},
		{"grundy", "test_takeaway(3).grundy((7, 1))", "2"},
		{"options", "test_takeaway(2).options((3,))", "[(1,), (2,)]"},
		{"p-positions", "test_takeaway(3).p_positions(9).count", "3"},
		{"period observed only", "p = test_takeaway(3).period()\n(p.proven, p.checked_to)", "(False, 12)"},
		{"repr", "test_takeaway(3, upto=5)", "test_takeaway(3, upto=5)\ntake-away 3"},
		{"sum", `g = game(moves=lambda p: [p - 1] if p > 0 else [], start=2)
(g + test_takeaway(3)).grundy((1, (3,)))`, "2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := run(t, newSession(t), tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s = %s, want %s", tc.code, got, tc.want)
			}
		})
	}
	errs := []struct{ name, code, want string }{
		{"out of range", "test_takeaway(99)", "test_takeaway: most_taken = 99 is out of range: it must be from 1 to 50"},
		{"missing", "test_takeaway()", "test_takeaway: missing argument for most_taken"},
		{"wrong kind", `test_takeaway("3")`, "test_takeaway: most_taken must be a whole number, not string"},
		{"unknown keyword", "test_takeaway(3, colour=1)", "unexpected keyword argument"},
		{"upto of an analysis", "test_takeaway(3).values(-1)", "values: upto = -1 is out of range: it must be from 0 to 100000000"},
		{"analysis of another rule", "test_takeaway(3).rare()", "rare does not apply to test-takeaway"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, newSession(t), tc.code)
			var ce *kernel.CellError
			if !errors.As(err, &ce) || !strings.Contains(ce.Value, tc.want) {
				t.Errorf("%s: got %v, want an error containing %q", tc.code, err, tc.want)
			}
		})
	}
	s := newSession(t)
	if got, _, _ := s.Complete("test_t", 6); !slices.Equal(got, []string{"test_takeaway"}) {
		t.Errorf("completion of test_t: %v", got)
	}
	if got, start, _ := s.Complete("test_takeaway(3, mo", 19); !slices.Equal(got, []string{"most_taken="}) || start != 17 {
		t.Errorf("completion of a keyword: %v at %d", got, start)
	}
	run(t, s, "g = test_takeaway(3)")
	if got, _, _ := s.Complete("g.val", 5); !slices.Equal(got, []string{"values"}) {
		t.Errorf("completion of g.val: %v", got)
	}
	if _, out, _ := run(t, s, "test_takeaway?"); !strings.HasPrefix(out, "test_takeaway(most_taken, upto=12, play=\"normal\", position=None)\n\n"+takeawayHelp) {
		t.Errorf("help: %q", out)
	}
	if text, ok := s.Inspect("g", 1); !ok || !strings.Contains(text, "take-away 3") || !strings.Contains(text, takeawayHelp) {
		t.Errorf("inspect: %q", text)
	}
}

// TestHeapLimit: the constructors refuse heaps past the engine's bound
// (heap.MaxHeap), naming it, before any work.
func TestHeapLimit(t *testing.T) {
	for _, code := range []string{"nim(1, 34359738368).outcome()", "nim([1, 34359738368])", "nim(1).outcome((34359738368,))", `octal("0.77").outcome((34359738368,))`} {
		_, _, err := run(t, newSession(t), code)
		var ce *kernel.CellError
		want := fmt.Sprintf("34359738368 is out of range: it must be from 0 to %d", heap.MaxHeap)
		if !errors.As(err, &ce) || !strings.Contains(ce.Value, want) {
			t.Errorf("%s: got %v, want an error containing %q", code, err, want)
		}
	}
	_, _, err := run(t, newSession(t), "nim(1, 34359738368)")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.Value, ": nim: a heap size = 34359738368 is out of range: it must be from 0 to 2147483647") {
		t.Errorf("nim(1, 34359738368): %v", err)
	}
}

// TestRuleBuiltins: every registered rule has its built-in, help and
// completion.
func TestRuleBuiltins(t *testing.T) {
	s := newSession(t)
	for _, r := range heap.Rules() {
		name := r.BuiltinName()
		if _, ok := builtins()[name]; !ok {
			t.Errorf("rule %s: no built-in %s", r.Name, name)
			continue
		}
		if got, _, _ := s.Complete(name, len(name)); !slices.Contains(got, name) {
			t.Errorf("completion of %s: %v", name, got)
		}
		if text, ok := s.Inspect(name, 1); !ok || !strings.Contains(text, r.Signature) {
			t.Errorf("inspect %s: %q, want it to start with %q", name, text, r.Signature)
		}
	}
	if text, ok := s.Inspect("hexa", 1); !ok || !strings.HasPrefix(text, "hexa(code, upto=100") || !strings.Contains(text, "Same as hex_game().") {
		t.Errorf("inspect hexa: %q", text)
	}
}

// laskerCell defines Lasker's Nim with a parameter: take any number of
// tokens from a heap, or (k ≥ 2) split it into two non-empty heaps.
const laskerCell = `def lasker(n, k):
    opts = [[n - t] for t in range(1, n + 1)]
    if k >= 2:
        opts += [[a, n - a] for a in range(1, n // 2 + 1)]
    return opts
L = rule(lasker, k=2)`

// TestRuleFunction: rule(f, k=…) is a heap rule like the registered
// ones. Lasker's Nim (Winning Ways ch. 4): g(4k+1) = 4k+1, g(4k+2) = 4k+2,
// g(4k+3) = 4k+4, g(4k+4) = 4k+3.
func TestRuleFunction(t *testing.T) {
	var want []string
	for n := 0; n <= 40; n++ {
		v := n
		switch {
		case n%4 == 3:
			v = n + 1
		case n%4 == 0 && n > 0:
			v = n - 1
		}
		want = append(want, fmt.Sprint(v))
	}
	lasker := "[" + strings.Join(want, ", ") + "]"
	tests := []struct{ name, code, want string }{
		{"values", "L.values(40)", lasker},
		{"values to upto", "len(L.values())", "101"},
		{"sized", "rule(lasker, k=2, upto=8).values()", "[0, 1, 2, 4, 3, 5, 6, 8, 7]"},
		{"parameter", "rule(lasker, k=1).values(5)", "[0, 1, 2, 3, 4, 5]"},
		{"period observed, never proven", "p = L.period()\n(p.proven, p.checked_to)", "(False, 100)"},
		{"grundy", "L.grundy((3,))", "4"},
		{"outcome", "L.outcome((3, 4))", `"N"`},
		{"outcome P", "L.outcome((7, 7, 3, 3))", `"P"`},
		{"moves", "L.moves((3, 1))", "[(1, 1)]"},
		{"moves split", "L.moves((3, 3, 3))", "[(0, 3, 3), (3, 0, 3), (3, 3, 0)]"},
		{"options", "L.options((3,))", "[(0,), (1,), (1, 2), (2,)]"},
		{"misere", `rule(lasker, k=2, play="misere").outcome((1,))`, `"P"`},
		{"position", "rule(lasker, k=2, position=(3, 4)).outcome()", `"N"`},
		{"p-positions", "L.p_positions(20).count", "1"},
		{"repr", "L", "rule(lasker, k=2)\nrule lasker(k=2) from cell 1"},
		{"sum", "(L + nim(4)).grundy(((3,), (4,)))", "0"},
		{"lambda", "rule(lambda n: [[n - 1]] if n else []).values(3)", "[0, 1, 0, 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			run(t, s, laskerCell)
			got, _, err := run(t, s, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s = %s, want %s", tc.code, got, tc.want)
			}
		})
	}
	errs := []struct{ name, code, want string }{
		{"not a function", "rule(3)", "rule: want a function f(n, ...)"},
		{"missing parameter", "rule(lasker)", "lasker(n, k) needs k"},
		{"unknown parameter", "rule(lasker, k=2, j=1)", "takes no parameter j"},
		{"positional parameter", "rule(lasker, 2)", "give the rule's parameters by name"},
		{"error in the function", "rule(lambda n: [[n // 0]]).values(3)", "division by zero"},
		{"error in winning moves", "rule(lambda n: [] if n == 0 else [[1 // 0]] if n == 2 else [[n - 1]]).moves((3,))", "division by zero"},
		{"error in options", "rule(lambda n: [] if n == 0 else [[1 // 0]] if n == 2 else [[n - 1]]).options((2,))", "division by zero"},
		{"error in grundy", "rule(lambda n: [] if n == 0 else [[1 // 0]] if n == 2 else [[n - 1]]).grundy((3,))", "division by zero"},
		{"bad options", "rule(lambda n: n).values(3)", "not a list of options"},
		{"growing heap", "rule(lambda n: [[n + 1]] if n else []).values(3)", "not smaller than"},
		{"steps", "limits(steps=100000)\nrule(lasker, k=2).values(2000)", "steps"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			run(t, s, laskerCell)
			_, _, err := run(t, s, tc.code)
			var ce *kernel.CellError
			if !errors.As(err, &ce) || !strings.Contains(ce.Value, tc.want) {
				t.Errorf("%s: got %v, want an error containing %q", tc.code, err, tc.want)
			}
		})
	}
	// print in the function writes to the cell.
	s := newSession(t)
	run(t, s, "def f(n):\n    print(\"heap\", n)\n    return [[n - 1]] if n else []")
	if _, out, err := run(t, s, "rule(f).values(1)"); err != nil || !strings.Contains(out, "heap 1") {
		t.Errorf("print in a rule: %q, %v", out, err)
	}
	if text, ok := s.Inspect("rule", 1); !ok || !strings.HasPrefix(text, "rule(f, upto=100") {
		t.Errorf("inspect rule: %q", text)
	}
	// play
	ty := &typist{lines: []string{"quit"}}
	run(t, s, laskerCell)
	if _, err := s.Execute(t.Context(), "play(L, position=(3, 4))", ty); err != nil || len(ty.prompts) == 0 {
		t.Errorf("play: %v\n%s", err, ty.stdout.String())
	}
}
