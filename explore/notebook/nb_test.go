package notebook

import "testing"

// The families' own fast rules (nb_*.go), reached through their adapters,
// against the notebook's generic solver, game(moves=...), on all small
// positions, and the words and moves that the adapters give.
func TestFamilyAdapters(t *testing.T) {
	// wythoffMoves: take any number from one heap, or the same from both.
	const wythoffMoves = `g = game(moves=lambda p: [(a, p[1]) for a in range(p[0])] + [(p[0], b) for b in range(p[1])] + [(p[0] - k, p[1] - k) for k in range(1, min(p[0], p[1]) + 1)], start=(0, 0))`
	// coinMoves: at-most 2 from coin 1: turn a head x to tails, and
	// perhaps one coin y < x either way; a position is its heads, sorted.
	const coinMoves = `def flip(p, cs):
    s = {h: True for h in p}
    for c in cs:
        if c in s:
            s.pop(c)
        else:
            s[c] = True
    return tuple(sorted(s.keys()))
def cm(p):
    return [flip(p, [x]) for x in p] + [flip(p, [x, y]) for x in p for y in range(1, x)]
c = game(moves=cm, start=())`
	cases := []struct {
		name  string
		cells []string
		want  string
	}{
		{"wythoff title", []string{"wythoff(5)"}, "wythoff(5, 5)\nWythoff's game"},
		{"wythoff options", []string{"wythoff().options((1, 2))"}, "[(0, 1), (0, 2), (1, 0), (1, 1)]"},
		{"wythoff grundy against the generic solver", []string{wythoffMoves,
			"[(a, b) for a in range(6) for b in range(6) if wythoff().grundy((a, b)) != g.grundy((a, b))]"}, "[]"},
		{"wythoff options against the generic solver", []string{wythoffMoves,
			"[(a, b) for a in range(5) for b in range(5) if sorted(wythoff().options((a, b))) != sorted(g.options((a, b)))]"}, "[]"},
		{"the generic Wythoff's game is not trivial", []string{wythoffMoves, "[g.grundy((3, b)) for b in range(6)]"}, "[3, 4, 5, 6, 2, 0]"},
		{"coins title", []string{"coins(r=2)"}, "coins(r=2)\nat-most 2, coins from 1"},
		{"coins options", []string{"coins(r=2).options((3,))"}, "[(), (1,), (2,)]"},
		{"coins grundy against the generic solver", []string{coinMoves,
			"[p for p in [(), (1,), (2,), (3,), (1, 3), (2, 4), (1, 2, 5), (3, 4, 6)] if coins(r=2).grundy(p) != c.grundy(p)]"}, "[]"},
		{"the generic coin game is not trivial", []string{coinMoves, "[c.grundy(p) for p in [(1,), (2,), (3,), (1, 3)]]"}, "[1, 2, 3, 2]"},
		{"product title", []string{"product(coins(r=1), coins(r=2), size=[4, 4])"},
			"product(coins(r=1), coins(r=2), size=[4, 4])\ntartan product of at-most 1, coins from 1 × at-most 2, coins from 1"},
		// The tartan theorem (Winning Ways, ch. 14): a head at (x, y) of
		// G × H is worth g(x) ⊗ h(y).
		{"product grundy is the nim-product of its factors'", []string{
			"p = product(coins(r=2), coins(rule=\"ruler\"), size=[5, 5])",
			"[(x, y) for x in range(1, 6) for y in range(1, 6) if p.grundy([(x, y)]) != nim_mul(coins(r=2).grundy((x,)), coins(rule=\"ruler\").grundy((y,)))]"}, "[]"},
		{"product options", []string{"product(coins(r=1), coins(r=1), size=[3, 3]).options([(2, 2)])"}, "[()]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, _, err := run(t, newSession(t), tc.cells...)
			if err != nil {
				t.Fatal(err)
			}
			if text != tc.want {
				t.Errorf("%s = %q, want %q", tc.cells[len(tc.cells)-1], text, tc.want)
			}
		})
	}
}
