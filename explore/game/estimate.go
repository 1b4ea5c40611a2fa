package game

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nimbook/nimbook/explore/budget"
)

// levelKey is a part met at a level of Estimate's walks.
type levelKey[T comparable] struct {
	level int
	key   T
}

// Cost is what solving one position is predicted to take (Estimate).
type Cost struct {
	// Positions is the number of positions (canonical parts; whole
	// positions under misère play) the memo will hold.
	Positions int64
	// Steps is the work counted against Options.MaxSteps.
	Steps int64
	// Bytes is the memory of the memo.
	Bytes int64
	// Exact is set when a pilot solve finished within its small budget:
	// the figures are then measured, not predicted.
	Exact bool
	// Playouts is the number of random games played to the end.
	Playouts int
	// Branching is the mean number of options of the parts met.
	Branching float64
	// Depth is the mean number of moves of a playout, MaxDepth the most.
	Depth    float64
	MaxDepth int
	// Parts is the mean number of parts of the positions met.
	Parts float64
	// SampleSteps is the work the estimate itself took.
	SampleSteps int64
}

func (c Cost) String() string {
	if c.Exact {
		return fmt.Sprintf("%d positions, %d steps, %s (measured)", c.Positions, c.Steps, budget.FormatSize(c.Bytes))
	}
	return fmt.Sprintf("about %d positions, %d steps, %s (from %d playouts: %.1f moves, %.1f options per part, %.1f parts)", c.Positions, c.Steps, budget.FormatSize(c.Bytes), c.Playouts, c.Depth, c.Branching, c.Parts)
}

// Check refuses, before any work, a solve whose cost exceeds a limit of
// opts, with an error naming the limit (and wrapping ErrTooManySteps,
// ErrTooManyPositions or budget.ErrMemory).
func (c Cost) Check(opts Options) error {
	about := "about "
	if c.Exact {
		about = ""
	}
	if opts.MaxSteps > 0 && c.Steps > opts.MaxSteps {
		return fmt.Errorf("game: solving needs %s%d steps, more than the step limit of %d: %w (raise it with --max-steps or limits.steps in the job file)", about, c.Steps, opts.MaxSteps, ErrTooManySteps)
	}
	maxPos := opts.MaxPositions
	if maxPos == 0 {
		maxPos = DefaultMaxPositions
	}
	if c.Positions > int64(maxPos) {
		return fmt.Errorf("game: solving needs %s%d positions, more than %d: %w (raise it with --max-positions or limits.positions in the job file)", about, c.Positions, maxPos, ErrTooManyPositions)
	}
	if err := budget.Exceeds(fmt.Sprintf("solving %s%d positions", about, c.Positions), c.Bytes, opts.MaxMemory); err != nil {
		return fmt.Errorf("game: %w (raise it with --max-memory or limits.memory)", err)
	}
	return nil
}

const (
	// pilotSteps is the budget of the exact solve Estimate tries first.
	pilotSteps = 20_000
	// playouts is the number of random walks Estimate makes, unless they
	// take more than sampleSteps steps.
	playouts    = 1000
	sampleSteps = 1_000_000
)

// Estimate predicts what solving start (its Grundy value, or its misère
// outcome when opts.Play is Misere) will take, with m's capabilities.
// It first solves start with a budget of 20000 steps (or a tenth of
// opts.MaxSteps, when less): a game that small is measured exactly.
// Otherwise it makes 1000 random walks (fewer if they take more than a
// million steps; with a fixed seed: the same game gives the same estimate) in the graph of the parts the solver would
// remember: from a part to one part of one of its options, drawn in
// proportion to their numbers of options, down to a part without moves.
// At each level of that graph it counts the distinct parts met, extends
// the count to those not met by Chao's estimator (from the parts met once
// and twice), caps it by Knuth's estimate of the number of nodes of the
// tree at that level, and adds the levels. Steps are each level's parts
// times the mean steps of expanding one of the distinct parts met there. The package documentation
// gives its accuracy on the test games; the estimate is a guide, and the
// solver's own budgets stop any search that it underestimated.
func Estimate[T comparable](m Mover[T], start T, opts Options) (Cost, error) {
	return EstimateWith(m, start, opts, Sampling{})
}

// Sampling sets how much Estimate samples; zero fields take Estimate's
// figures.
type Sampling struct {
	// Pilot is the steps of the exact solve tried first (20000).
	Pilot int64
	// Walks is the most random walks (1000).
	Walks int
}

// EstimateWith is Estimate sampling as sm says: a plan that estimates many
// games before any work (the terms of a parameter range, the variants of a
// survey), each of whose steps may be a call of a Starlark function,
// trades accuracy for time with a shorter pilot and fewer walks.
func EstimateWith[T comparable](m Mover[T], start T, opts Options, sm Sampling) (Cost, error) {
	walks := cmp.Or(sm.Walks, playouts)
	budgetSteps := opts.MaxSteps
	pilot := cmp.Or(sm.Pilot, pilotSteps)
	if budgetSteps > 0 {
		pilot = min(pilot, budgetSteps/10)
	}
	po := opts
	po.MaxSteps, po.Workers, po.Progress = max(pilot, 1), 1, nil
	s, err := NewSolver(m, po)
	if err != nil {
		return Cost{}, err
	}
	if _, err = s.Outcome(start); err == nil {
		st := s.Stats()
		return Cost{Positions: st.Solved, Steps: st.Steps, Bytes: st.MemoBytes, Exact: true, SampleSteps: st.Steps}, nil
	}
	if !errors.Is(err, ErrTooManySteps) {
		return Cost{}, err
	}

	// The playouts use a solver's helpers (parts, canonical, step) for
	// their accounting, with the caller's step budget less the pilot's.
	po.MaxSteps = 0
	if budgetSteps > 0 {
		po.MaxSteps = budgetSteps
	}
	e, err := NewSolver(m, po)
	if err != nil {
		return Cost{}, err
	}
	e.steps.Store(s.steps.Load())
	misere := opts.Play == Misere
	rng := rand.New(rand.NewPCG(1, 2))

	// A walk goes from a part to a part of one of its options, both
	// drawn at random, down to a part without moves: the parts the solver
	// will remember are exactly the nodes of this graph of parts.
	type level struct {
		n1, n2, distinct float64 // parts met once, twice, at all
		weight           float64 // Σ of Knuth's weights: the tree's nodes at this level, times playouts
		work             float64 // Σ of the steps of expanding the parts met
		n                float64
	}
	var levels []level
	counts := make(map[levelKey[T]]int)
	var sample T
	at := func(d int) *level {
		for len(levels) <= d {
			levels = append(levels, level{})
		}
		return &levels[d]
	}
	var (
		sumB, nB         float64 // options per part
		sumParts, nParts float64 // parts per option taken
		sumDepth         float64
		maxDepth         int
	)
	keysOf := func(p T) ([]T, error) {
		if misere {
			k, err := e.canonical(p)
			return []T{k}, err
		}
		return e.parts(p, nil)
	}
	perOption := 0.0 // steps per option of an expanded part, besides the expansion
	if !misere && e.split != nil {
		perOption = 1
	}
	roots, err := keysOf(start)
	if err != nil {
		return Cost{}, err
	}
	made := 0
	sampleStart := e.steps.Load()
	for i := range walks {
		if opts.Context != nil {
			if err := budget.Err(opts.Context); err != nil {
				return Cost{}, fmt.Errorf("game: %w", err)
			}
		}
		// Games of very long walks get fewer of them.
		if len(roots) == 0 || i > 0 && e.steps.Load()-sampleStart > sampleSteps {
			break
		}
		made++
		// Each root starts playouts in turn: the memo holds all of them.
		k := roots[i%len(roots)]
		weight := float64(len(roots))
		d := 0
		for {
			if err := e.step(2); err != nil {
				return Cost{}, err
			}
			ms, err := m.Moves(k)
			if err != nil {
				return Cost{}, fmt.Errorf("game: moves of %v: %w", k, err)
			}
			lv := at(d)
			// One map for all levels keeps a long chain of levels cheap.
			lk := levelKey[T]{d, k}
			counts[lk]++
			switch counts[lk] {
			case 1:
				lv.n1++
				lv.distinct++
			case 2:
				lv.n1--
				lv.n2++
			case 3:
				lv.n2--
			}
			sample = k
			// The work of an expansion is averaged over the distinct
			// parts (each is expanded once), not over the visits, which
			// favour the small parts met again and again.
			first := counts[lk] == 1
			lv.weight += weight
			sumB += float64(len(ms))
			nB++
			if len(ms) == 0 {
				if first {
					lv.work += 2
					lv.n++
				}
				break
			}
			ks, err := keysOf(ms[rng.IntN(len(ms))])
			if err != nil {
				return Cost{}, err
			}
			sumParts += float64(len(ks))
			nParts++
			work := perOption
			if e.canon != nil {
				work += float64(len(ks))
			}
			if first {
				lv.work += 2 + float64(len(ms))*work
				lv.n++
			}
			if len(ks) == 0 {
				break
			}
			// The next part is drawn in proportion to its number of
			// options: big parts, which have the most descendants, are
			// followed more often (Knuth's weight corrects for it).
			next, b, total := ks[0], 0, 0
			if len(ks) > 1 {
				sizes := make([]int, len(ks))
				for j, q := range ks {
					if err := e.step(1); err != nil {
						return Cost{}, err
					}
					qs, err := m.Moves(q)
					if err != nil {
						return Cost{}, fmt.Errorf("game: moves of %v: %w", q, err)
					}
					sizes[j] = len(qs) + 1
					total += sizes[j]
				}
				r := rng.IntN(total)
				for j, sz := range sizes {
					if r < sz {
						next, b = ks[j], sz
						break
					}
					r -= sz
				}
				weight *= float64(len(ms)) * float64(total) / float64(b)
			} else {
				weight *= float64(len(ms))
			}
			k = next
			d++
		}
		sumDepth += float64(d)
		maxDepth = max(maxDepth, d)
	}
	c := Cost{Playouts: made, MaxDepth: maxDepth}
	if made > 0 {
		c.Depth = sumDepth / float64(made)
	}
	if nB > 0 {
		c.Branching = sumB / nB
	}
	c.Parts = 1
	if nParts > 0 {
		c.Parts = sumParts / nParts
	}
	var positions, steps float64
	for _, lv := range levels {
		n, f1, f2 := lv.distinct, lv.n1, lv.n2
		chao := n + f1*(f1-1)/(2*(f2+1))
		knuth := lv.weight / float64(made)
		est := max(n, min(chao, knuth))
		positions += est
		steps += est * lv.work / lv.n
	}
	c.Positions = int64(math.Min(positions, math.MaxInt64/4))
	c.Steps = int64(math.Min(steps, math.MaxInt64/4))
	c.Bytes = int64(math.Min(positions*float64(entryBytes(sample)), math.MaxInt64/4))
	c.SampleSteps = e.steps.Load()

	return c, nil
}

// Forecast predicts the work of the next term of a parameter range from
// the work of the terms before it (steps, or positions, as the solver's
// Stats counted them for each term alone), for games whose parts the
// walks of Estimate undercount: it extends the geometric growth of the
// last three terms (3 × n Node Kayles grows 1.84 times a column). It
// returns 0 when fewer than two terms did any work.
func Forecast(work []int64) int64 {
	var ratios []float64
	for i := len(work) - 1; i > 0 && len(ratios) < 3; i-- {
		if work[i] > 0 && work[i-1] > 0 {
			ratios = append(ratios, float64(work[i])/float64(work[i-1]))
		}
	}
	if len(ratios) == 0 || work[len(work)-1] <= 0 {
		return 0
	}
	logSum := 0.0
	for _, r := range ratios {
		logSum += math.Log(r)
	}
	next := float64(work[len(work)-1]) * math.Exp(logSum/float64(len(ratios)))
	return int64(math.Min(next, math.MaxInt64/4))
}
