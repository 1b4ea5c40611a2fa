package heap

import (
	"fmt"
	"slices"

	"github.com/nimbook/nimbook/explore/game"
)

// Nim is the game of Nim, where any number of tokens may be taken from one
// heap, or, with a bound k, at most k of them (seed 004's game with
// N = k + 1).
type Nim struct {
	maxTake int
}

// NewNim returns Nim where at most maxTake tokens may be taken per move;
// maxTake 0 means no bound.
func NewNim(maxTake int) (*Nim, error) {
	if maxTake < 0 {
		return nil, fmt.Errorf("heap: nim: max-take %d is negative (want a positive bound, or 0 for none)", maxTake)
	}
	return &Nim{maxTake: maxTake}, nil
}

// MaxTake returns the bound on a move, 0 when there is none.
func (g *Nim) MaxTake() int { return g.maxTake }

// String returns "nim" or "nim (take at most k)".
func (g *Nim) String() string {
	if g.maxTake == 0 {
		return "nim"
	}
	return fmt.Sprintf("nim (take at most %d)", g.maxTake)
}

// Options lists the heaps n may become: every smaller heap (at most MaxTake
// smaller), the empty list standing for 0.
func (g *Nim) Options(n int) [][]int {
	lo := 0
	if g.maxTake > 0 {
		lo = max(0, n-g.maxTake)
	}
	var out [][]int
	for m := lo; m < n; m++ {
		if m == 0 {
			out = append(out, []int{})
		} else {
			out = append(out, []int{m})
		}
	}
	return out
}

// optionCount is len(g.Options(n)), counted.
func (g *Nim) optionCount(n int) int64 {
	if g.maxTake > 0 {
		return int64(min(n, g.maxTake))
	}
	return int64(n)
}

// estimate is the cost of Values: a formula, a step a heap.
func (g *Nim) estimate(upto int, _ Limits) (Cost, error) {
	return Cost{Method: SweepFormula, Memory: 8 * (int64(upto) + 1), Steps: float64(upto + 1)}, nil
}

// window: bounded Nim is the subtraction game S = {1, …, k}, proven by
// its window n0 ≤ n < n0 + k; plain Nim, g(n) = n, is never periodic.
func (g *Nim) window(n0, _ int) (int, string, bool) {
	if g.maxTake == 0 {
		return 0, MethodNim, false
	}
	return n0 + g.maxTake, MethodSubtraction, true
}

// Explain says the rule to a player.
func (g *Nim) Explain() string {
	if g.maxTake > 0 {
		return fmt.Sprintf("take 1 to %d tokens from one heap.", g.maxTake)
	}
	return "take any number of tokens (at least one) from one heap."
}

// Forbidden says why taking k tokens is never a move (none, or more than
// the bound), or returns "".
func (g *Nim) Forbidden(k int) string {
	if k == 0 {
		return "take at least one token"
	}
	if g.maxTake > 0 && k > g.maxTake {
		return fmt.Sprintf("you may take at most %s at a time", plural(g.maxTake, "token", "tokens"))
	}
	return ""
}

// value is g(n) = n, or n mod (k+1) for bounded Nim.
func (g *Nim) value(n int) uint64 {
	if g.maxTake == 0 {
		return uint64(n)
	}
	return uint64(n % (g.maxTake + 1))
}

// Values returns g(0..upto): n, or n mod (k + 1) when at most k may be taken.
func (g *Nim) Values(upto int, lim Limits) ([]uint64, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, err
	}
	vs := make([]uint64, upto+1)
	for n := range vs {
		vs[n] = g.value(n)
	}
	return vs, nil
}

// outcome applies Bouton's rule (normal play) or the misère rule of
// MATH.md and seed 004: as normal play unless every remainder is ≤ 1, then
// P exactly when the remainders' nim-sum is 1.
func (g *Nim) outcome(heaps []int, play game.Play) game.Outcome {
	var s uint64
	big := false
	for _, h := range heaps {
		r := g.value(h)
		s ^= r
		if r > 1 {
			big = true
		}
	}
	want := uint64(0)
	if play == game.Misere && !big {
		want = 1
	}
	if s == want {
		return game.P
	}
	return game.N
}

// winningMoves tries, in each heap, the only new sizes that can win: the
// one making the nim-sum 0 and (for misère play) those leaving a remainder
// of 0 or 1; so a heap of 10^9 costs no more than a heap of 3.
func (g *Nim) winningMoves(heaps []int, play game.Play) [][]int {
	if g.outcome(heaps, play) == game.P {
		return [][]int{}
	}
	var s uint64
	for _, h := range heaps {
		s ^= g.value(h)
	}
	var out [][]int
	for i, h := range heaps {
		lo := 0
		if g.maxTake > 0 {
			lo = max(0, h-g.maxTake)
		}
		for _, r := range []uint64{g.value(h) ^ s, 0, 1} {
			m := int(r) // the new size for plain Nim
			if g.maxTake > 0 {
				// The one size in [lo, h) with remainder r: the window is
				// shorter than the modulus.
				mod := g.maxTake + 1
				m = lo + ((int(r)-lo%mod)%mod+mod)%mod
			}
			if m < lo || m >= h {
				continue
			}
			q := slices.Clone(heaps)
			q[i] = m
			if g.outcome(q, play) == game.P {
				out = append(out, q)
			}
		}
	}
	return sortPositions(out)
}

// PPositionSet is the set of P-positions among every ordered tuple of
// heaps bounded by given sizes.
type PPositionSet struct {
	// Total is the number of positions examined.
	Total int
	// Count is the number of P-positions among them.
	Count int
	// List holds the P-positions in lexicographic order when there are at
	// most MaxListed of them, else nil.
	List [][]int
}

// MaxListed is the largest number of P-positions PPositions lists.
const MaxListed = 1000

// PPositions counts the P-positions (a_1, …, a_k) with 0 ≤ a_i ≤ heaps[i],
// ordered tuples, under play: for (1,3,5,7) that is 48 of 384 (seed 001).
// The number of tuples must be within lim.MaxPositions.
func (g *Nim) PPositions(heaps []int, play game.Play, lim Limits) (PPositionSet, error) {
	if err := checkHeaps(heaps); err != nil {
		return PPositionSet{}, err
	}
	total := 1
	for _, h := range heaps {
		if total > lim.positions()/(h+1) {
			return PPositionSet{}, fmt.Errorf("heap: %v: the positions with heaps at most %v are more than the limit of %d: %w (raise it with --max-positions or limits.positions in the job file)",
				g, heaps, lim.positions(), game.ErrTooManyPositions)
		}
		total *= h + 1
	}
	set := PPositionSet{Total: total}
	cur := make([]int, len(heaps))
	prog := lim.progress("P-positions", total)
	for step := 0; ; step++ {
		if step&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return PPositionSet{}, err
			}
			prog.Set(int64(step))
		}
		if g.outcome(cur, play) == game.P {
			set.Count++
			if set.Count <= MaxListed {
				set.List = append(set.List, slices.Clone(cur))
			}
		}
		// Odometer in lexicographic order: the last heap turns fastest.
		i := len(cur) - 1
		for i >= 0 && cur[i] == heaps[i] {
			cur[i] = 0
			i--
		}
		if i < 0 {
			break
		}
		cur[i]++
	}
	if set.Count > MaxListed {
		set.List = nil
	}
	return set, nil
}

func init() {
	Register(&Rule{
		Name:  "nim",
		Order: 10,
		Text: Texts(
			"Nim: take any number of tokens (at most max-take) from one heap",
			"Nim : prendre un nombre quelconque de jetons (au plus max-take) dans un tas"),
		Params: []Param{
			{Key: "heaps", Kind: Ints, Min: 0, Max: MaxHeap, What: "a heap size", Example: "[1, 3, 5, 7]", Positional: true,
				Text: Texts("the heaps of the position", "les tas de la position")},
			{Key: "max-take", Kind: Int, Min: 1, Max: MaxHeap, What: "the most one may take", Example: "3", OmitZero: true,
				Text: Texts("the most one may take in a move (none: any number)", "le plus qu’on peut prendre en un coup (sans : un nombre quelconque)")},
			UptoParam(20),
		},
		Describe: Texts(
			`Nim{{if .Heaps}} from heaps {{tuple .Heaps}}{{end}}{{if .MaxTake}}, taking at most {{.MaxTake}} per move (N = {{inc .MaxTake}}){{else}}, taking any number from one heap{{end}}`,
			`jeu de nim{{if .Heaps}} à partir des tas {{tuple .Heaps}}{{end}}{{if .MaxTake}}, en retirant au plus {{.MaxTake}} objets par coup (N = {{inc .MaxTake}}){{else}}, en retirant autant d’objets qu’on veut d’un seul tas{{end}}`),
		PositionParam: "heaps",
		Start:         []int{1, 3, 5, 7}, // seed 001's game
		Signature:     `nim(*heaps, max_take=None, upto=20, play="normal")`,
		Help:          "Nim with the given heaps, e.g. nim(1, 3, 5, 7); max_take=k allows taking at most k per move. Methods: values(upto), period(), genus(upto) and quotient(upto) (misère play), p_positions() (over every position with heaps at most the given ones), outcome(), moves(), graph(), grundy(), options(), plot().",
		New:           func(p Params) (Game, error) { return NewNim(p.Int("max-take")) },
	})
}
