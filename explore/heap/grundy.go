package heap

import "fmt"

// GrundysGame is Grundy's game (P. M. Grundy, 1939; Winning Ways ch. 4):
// a move splits one heap into two unequal non-empty heaps, so heaps of 1
// and 2 are dead ends. Its values (OEIS A002188) are not known to become
// periodic ("Mike Guy has computed ten million values, but a discernible
// pattern remains elusive", Guy 1989, quoted there). It is the octal game
// 4. with the splits into equal parts left out, and its values are
// computed as for such codes, by the sparse-space sweep past sparseTrial:
// under the split that ignores the last bit (A. Flammenkamp's page on the
// game; tczajka/octal-games), 1274 heaps up to 2^21 are rare, none after
// 82 860.
type GrundysGame struct{}

// NewGrundysGame returns Grundy's game.
func NewGrundysGame() *GrundysGame { return &GrundysGame{} }

// String returns "Grundy's game".
func (*GrundysGame) String() string { return "Grundy's game" }

// Options lists the splits of n into a < n − a, smaller part first.
func (*GrundysGame) Options(n int) [][]int {
	var out [][]int
	for a := 1; 2*a < n; a++ {
		out = append(out, []int{a, n - a})
	}
	return out
}

// optionCount is len(g.Options(n)): the a with 1 ≤ a < n/2.
func (*GrundysGame) optionCount(n int) int64 { return int64(max(0, (n-1)/2)) }

// SplitDigit returns 0: the only move takes no token and splits the heap
// (SingleSplitter), so the domain type of sparse space applies too.
func (*GrundysGame) SplitDigit() (int, bool) { return 0, true }

// Digit is what taking k tokens may leave, as an octal digit (Splitter):
// 4, two heaps, for k = 0, nothing else. The parts must also differ, which
// a digit cannot say: Options lists the moves.
func (*GrundysGame) Digit(k int) int {
	if k == 0 {
		return leaveTwo
	}
	return 0
}

// Explain says the rule to a player.
func (*GrundysGame) Explain() string {
	return "split one heap into two unequal heaps (take no token)."
}

// Forbidden says why taking k > 0 tokens is never a move.
func (*GrundysGame) Forbidden(k int) string {
	if k == 0 {
		return ""
	}
	return "in Grundy's game you take no token: split a heap into two unequal heaps"
}

// window: no theorem proves a period of Grundy's game from finitely many
// values. The Guy–Smith argument maps a split (a, b) of N + p to (a, b − p)
// of N, which is no move when b − p = a, so it fails here.
func (*GrundysGame) window(int, int) (int, string, bool) {
	return 0, MethodGrundy, false
}

// sweepMoves: the splits of the heap itself (k = 0), unequal parts only,
// on two workers: its sweeps are the longest asked for.
func (*GrundysGame) sweepMoves() sweepMoves {
	return sweepMoves{splits: []int{0}, t: 0, unequal: true, paired: true}
}

// estimate is the cost of Values (Estimate).
func (g *GrundysGame) estimate(upto int, lim Limits) (Cost, error) {
	p, err := g.plan(upto, lim)
	return p.cost, err
}

// plan chooses the sweep: every split of every heap up to sparseTrial
// (about upto²/4 steps), and past it the sparse-space sweep when its
// trial says it is cheaper (sparsePlan), as it is by far.
func (g *GrundysGame) plan(upto int, lim Limits) (sweepPlan, error) {
	u := float64(upto + 1)
	// The values, and the stamps of the mex (as many as the options).
	splits := Cost{Method: SweepSplits, Memory: 8*(int64(upto)+1) + 8*(int64(upto)/2+2), Steps: u * u / 4}
	if upto <= sparseTrial {
		return sweepPlan{cost: splits}, nil
	}
	prefix, err := g.splitValues(sparseFrom, Limits{Context: lim.Context})
	if err != nil {
		return sweepPlan{}, err
	}
	return sparsePlan(g, g.sweepMoves(), prefix, splits, upto, lim)
}

// Values returns g(0..upto).
func (g *GrundysGame) Values(upto int, lim Limits) ([]uint64, error) {
	vs, _, err := g.ValuesSweep(upto, lim)
	return vs, err
}

// ValuesSweep is Values, and says which algorithm computed them: the
// bit-set name stands for the plain sweep of every split.
func (g *GrundysGame) ValuesSweep(upto int, lim Limits) ([]uint64, Sweep, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, Sweep{}, err
	}
	p, err := g.plan(upto, lim)
	if err != nil {
		return nil, Sweep{}, err
	}
	if err := p.check(g, upto, lim); err != nil {
		return nil, Sweep{}, err
	}
	if p.cost.Method == SweepSparse {
		p.sweep.estimate = p.cost
		vs, err := p.sweep.finish(g, upto, lim)
		return vs, Sweep{Algorithm: AlgorithmSparse}, err
	}
	vs, err := g.splitValues(upto, lim)
	return vs, Sweep{Algorithm: AlgorithmDirect}, err
}

// splitValues is the plain sweep: the mex of g(a) ⊕ g(n − a) over every
// a < n − a, for each n. It is quadratic, and the sparse-space sweep's
// start and yardstick.
func (g *GrundysGame) splitValues(upto int, lim Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	var m mexer
	var steps, checked int64
	for n := range vs {
		if steps-checked >= 1<<16 || n == 0 {
			checked = steps
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		m.reset((n - 1) / 2)
		for a := 1; 2*a < n; a++ {
			m.add(vs[a] ^ vs[n-a])
		}
		steps += int64(max(0, (n-1)/2))
		if steps > lim.steps() {
			return nil, fmt.Errorf("heap: %v: stopped at heap %d after %d steps, the limit: %w (lower upto, or raise the limit)",
				g, n, steps, ErrTooManySteps)
		}
		vs[n] = m.mex()
	}
	return vs, nil
}

func init() {
	Register(&Rule{
		Name:  "grundy",
		Order: 50,
		Text: Texts(
			"Grundy's game: split one heap into two unequal non-empty heaps",
			"le jeu de Grundy : partager un tas en deux tas non vides et inégaux"),
		Describe: Texts(
			`Grundy's game (split one heap into two unequal heaps)`,
			`jeu de Grundy (partager un tas en deux tas inégaux)`),
		NoPeriod: Texts(
			"No periodicity theorem is known for Grundy's game (equal parts are no move, so the Guy–Smith window does not apply); whether its values become periodic is an open problem.",
			"On ne connaît pas de théorème de périodicité pour le jeu de Grundy (des parts égales ne sont pas un coup, la fenêtre de Guy et Smith ne s’applique donc pas) ; savoir si ses valeurs deviennent périodiques est un problème ouvert."),
		Params:    []Param{UptoParam(1000)},
		Analyses:  []string{"rare"},
		Signature: `grundy(upto=1000, play="normal", position=None)`,
		Help:      `Grundy's game, where a move splits one heap into two unequal heaps, e.g. grundy(). Positions are lists of heaps. Methods: values(upto), period() (never proven: no periodicity theorem is known), genus(upto) and quotient(upto) (misère play), rare(upto) (rare and common values, Winning Ways ch. 4), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot().`,
		New:       func(Params) (Game, error) { return NewGrundysGame(), nil },
	})
}
