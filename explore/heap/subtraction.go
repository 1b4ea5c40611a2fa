package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxSubtract bounds the members of a subtraction set, so that the octal
// code of a subtraction game stays a reasonable string.
const maxSubtract = 1 << 16

// Subtraction is a subtraction game: from a heap of n take s tokens, s in a
// finite set S (s ≤ n), or, for an "all-but" game, any positive s not in S.
type Subtraction struct {
	set    []int // sorted, distinct, positive
	allBut bool
}

// NewSubtraction returns the subtraction game with the finite set S.
func NewSubtraction(set []int) (*Subtraction, error) {
	s, err := newSubtraction(set, false)
	if err != nil {
		return nil, err
	}
	if len(s.set) == 0 {
		return nil, fmt.Errorf("heap: subtraction: the set is empty (want at least one positive integer)")
	}
	return s, nil
}

// NewAllBut returns the subtraction game where any positive number of
// tokens not in set may be taken (all-but S; an empty S is Nim).
func NewAllBut(set []int) (*Subtraction, error) {
	return newSubtraction(set, true)
}

func newSubtraction(set []int, allBut bool) (*Subtraction, error) {
	s := slices.Clone(set)
	slices.Sort(s)
	s = slices.Compact(s)
	for _, v := range s {
		if v <= 0 || v > maxSubtract {
			return nil, fmt.Errorf("heap: subtraction: %d is not allowed in the set (want integers from 1 to %d)", v, maxSubtract)
		}
	}
	return &Subtraction{set: s, allBut: allBut}, nil
}

// Set returns S, sorted.
func (g *Subtraction) Set() []int { return slices.Clone(g.set) }

// AllBut reports whether S lists the numbers that may not be taken.
func (g *Subtraction) AllBut() bool { return g.allBut }

// String returns e.g. "subtraction {1,3,4}" or "subtraction all-but {1,2}".
func (g *Subtraction) String() string {
	parts := make([]string, len(g.set))
	for i, v := range g.set {
		parts[i] = strconv.Itoa(v)
	}
	set := "{" + strings.Join(parts, ",") + "}"
	if g.allBut {
		return "subtraction all-but " + set
	}
	return "subtraction " + set
}

// allowed reports whether s tokens may be taken (from a large enough heap).
func (g *Subtraction) allowed(s int) bool {
	_, in := slices.BinarySearch(g.set, s)
	return s > 0 && in != g.allBut
}

// optionCount is len(g.Options(n)), counted from the members ≤ n.
func (g *Subtraction) optionCount(n int) int64 {
	in, _ := slices.BinarySearch(g.set, n+1) // members ≤ n
	if g.allBut {
		return int64(n - in)
	}
	return int64(in)
}

// estimate is the cost of Values: |S| steps a heap, |S|² + 1 for all-but.
func (g *Subtraction) estimate(upto int, _ Limits) (Cost, error) {
	u, k := float64(upto+1), float64(len(g.set))
	values := 8 * (int64(upto) + 1)
	if g.allBut {
		return Cost{Method: SweepAllBut, Memory: values, Steps: u * (k*k + 1)}, nil
	}
	return Cost{Method: SweepPlain, Memory: values, Steps: u * k}, nil
}

// window is n0 ≤ n < n0 + max S (period.go says why); all-but games are
// arithmetic-periodic and never proven periodic.
func (g *Subtraction) window(n0, _ int) (int, string, bool) {
	if g.allBut {
		return 0, MethodAllBut, false
	}
	return n0 + g.set[len(g.set)-1], MethodSubtraction, true
}

// Explain says the rule to a player.
func (g *Subtraction) Explain() string {
	if g.allBut {
		return fmt.Sprintf("take any number of tokens from one heap, but not %s.", OrList(g.set))
	}
	return fmt.Sprintf("take %s tokens from one heap.", OrList(g.set))
}

// Forbidden says why taking k tokens is never a move, or returns "".
func (g *Subtraction) Forbidden(k int) string {
	if k == 0 {
		return "take at least one token"
	}
	_, in := slices.BinarySearch(g.set, k)
	if g.allBut && in {
		return fmt.Sprintf("you may take any number of tokens but %s", OrList(g.set))
	}
	if !g.allBut && !in {
		return fmt.Sprintf("you may take %s tokens, not %d", OrList(g.set), k)
	}
	return ""
}

// Options lists the heaps n may become, smallest first.
func (g *Subtraction) Options(n int) [][]int {
	var out [][]int
	for m := 0; m < n; m++ {
		if g.allowed(n - m) {
			if m == 0 {
				out = append(out, []int{})
			} else {
				out = append(out, []int{m})
			}
		}
	}
	return out
}

// Octal returns the octal game with digit 3 at each member of a finite S,
// the same game written as a code (MATH.md).
func (g *Subtraction) Octal() (*Octal, error) {
	if g.allBut {
		return nil, fmt.Errorf("heap: %v: an all-but game has no finite octal code", g)
	}
	d := make([]byte, g.set[len(g.set)-1])
	for i := range d {
		d[i] = '0'
	}
	for _, s := range g.set {
		d[s-1] = '3'
	}
	return ParseOctal("0." + string(d))
}

// Values returns g(0..upto). A finite S costs |S| steps per heap; an
// all-but game keeps counts of the values so far, and a heap's options are
// those counts less the few heaps n − s, s ∈ S, so it costs |S|² per heap.
func (g *Subtraction) Values(upto int, lim Limits) ([]uint64, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, err
	}
	k := float64(len(g.set))
	if g.allBut {
		k = k*k + 1
	}
	if err := lim.checkSteps(g, upto, float64(upto+1)*k); err != nil {
		return nil, err
	}
	if g.allBut {
		return g.allButValues(upto, lim)
	}
	vs := make([]uint64, upto+1)
	var m mexer
	for n := range vs {
		if n&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		m.reset(len(g.set))
		for _, s := range g.set {
			if s > n {
				break
			}
			m.add(vs[n-s])
		}
		vs[n] = m.mex()
	}
	return vs, nil
}

func (g *Subtraction) allButValues(upto int, lim Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	var count []int // count[v] = number of heaps m < n with g(m) = v
	var prefixMex uint64
	excluded := make(map[uint64]int, len(g.set))
	for n := range vs {
		if n&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		// A value v < prefixMex is missing from the options exactly when
		// every heap holding it is one of the excluded n − s.
		clear(excluded)
		for _, s := range g.set {
			if s > n {
				break
			}
			excluded[vs[n-s]]++
		}
		best := prefixMex
		for v, e := range excluded {
			if v < best && count[v] == e {
				best = v
			}
		}
		vs[n] = best
		for uint64(len(count)) <= best {
			count = append(count, 0)
		}
		count[best]++
		for prefixMex < uint64(len(count)) && count[prefixMex] > 0 {
			prefixMex++
		}
	}
	return vs, nil
}

func init() {
	amounts := func(key, en, fr string) Param {
		return Param{Key: key, Kind: Ints, Min: 1, Max: MaxUpto, What: "an amount to take", Example: "[1, 3, 4]", Text: Texts(en, fr)}
	}
	Register(&Rule{
		Name:  "subtraction",
		Order: 20,
		Text: Texts(
			"a subtraction game: take s tokens from one heap, s in the set (or, all-but, s not in it)",
			"un jeu de soustraction : prendre s jetons dans un tas, s dans l’ensemble (ou, avec all-but, s hors de l’ensemble)"),
		Describe: Texts(
			`subtraction game (take {{if .Set}}s ∈ {{set .Set}}{{else}}any number except {{set .AllBut}}{{end}} from one heap)`,
			`jeu de soustraction (retirer {{if .Set}}s ∈ {{set .Set}}{{else}}n’importe quel nombre sauf {{set .AllBut}}{{end}} objets d’un tas)`),
		Params: []Param{
			amounts("set", "the amounts one may take", "les nombres de jetons qu’on peut prendre"),
			amounts("all-but", "the amounts one may not take", "les nombres de jetons qu’on ne peut pas prendre"),
			UptoParam(100),
		},
		Start:     []int{15},
		Signature: `subtraction(set=None, all_but=None, upto=100, play="normal", position=None)`,
		Help:      "The subtraction game where a move takes s ∈ set from one heap, e.g. subtraction([1, 3, 4]); all_but=[...] allows every amount except those. Methods: values(upto), period(), genus(upto) and quotient(upto) (misère play), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot().",
		Check: func(p Params) error {
			switch {
			case p.Has("set") && p.Has("all-but"):
				return &ParamError{Msg: "give either set or all-but, not both"}
			case !p.Has("set") && !p.Has("all-but"):
				return &ParamError{Key: "set", Msg: "missing: write the amounts one may take, e.g. set: [1, 3, 4] (or all-but: [...])"}
			case p.Has("set") && len(p.Ints("set")) == 0:
				return &ParamError{Key: "set", Msg: "the set is empty: no move is possible; give at least one amount"}
			}
			return nil
		},
		New: func(p Params) (Game, error) {
			if p.Has("all-but") {
				return NewAllBut(p.Ints("all-but"))
			}
			return NewSubtraction(p.Ints("set"))
		},
		Generators: subtractionGenerators(),
	})
}

// maxSurveyWithin bounds a survey's within: K makes up to 2^K − 1 sets.
const maxSurveyWithin = 24

// subtractionGenerators are the survey keys of a subtraction set: within:
// K with size: "A..B" (every S ⊆ {1..K} with A ≤ |S| ≤ B, by size, then
// in lexicographic order) and sets: [...].
func subtractionGenerators() []Generator {
	either := func(key, other string) func(has func(string) bool) error {
		return func(has func(string) bool) error {
			for _, k := range []string{"set", "all-but", other} {
				if has(k) {
					return fmt.Errorf("give either %s or %s, not both", key, k)
				}
			}
			return nil
		}
	}
	span := func(a GeneratorArgs) (k, lo, hi int64, err error) {
		k, _, ranged, _, err := a.Span("within", "the largest amount", 1, maxSurveyWithin)
		if err != nil {
			return 0, 0, 0, err
		}
		if ranged {
			return 0, 0, 0, &ParamError{Key: "within", Msg: `within takes one number K (sets within {1..K}); put the range on size, e.g. size: "1..3"`}
		}
		lo, hi, _, ok, err := a.Span("size", "the number of amounts in a set", 1, k)
		if !ok {
			lo, hi = 1, k
		}
		return k, lo, hi, err
	}
	return []Generator{{
		Key: "within", Param: "set", Example: "within: 8", Check: either("within", "sets"),
		With:  []string{"size"},
		Alone: `size counts the amounts of sets within {1..K}: add within: K, e.g. {within: 8, size: "1..3"}`,
		Count: func(a GeneratorArgs) (int64, string, error) {
			k, lo, hi, err := span(a)
			if err != nil {
				return 0, "", err
			}
			n := int64(0)
			for size := lo; size <= hi; size++ {
				n += binomial(k, size)
			}
			return n, fmt.Sprintf("the sets within {1..%d} of %d to %d amounts", k, lo, hi), nil
		},
		Make: func(a GeneratorArgs) ([]any, error) {
			k, lo, hi, err := span(a)
			if err != nil {
				return nil, err
			}
			var out []any
			for size := lo; size <= hi; size++ {
				subsets(int(k), int(size), func(c []int) { out = append(out, slices.Clone(c)) })
			}
			return out, nil
		},
	}, {
		Key: "sets", Param: "set", Example: "sets: [[1, 2], [1, 3, 4]]", List: true, Check: either("sets", "within"),
	}}
}

// binomial is C(n, k), exact while it fits.
func binomial(n, k int64) int64 {
	r := int64(1)
	for i := int64(1); i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// subsets calls f with every size-subset of {1..k} in lexicographic order.
func subsets(k, size int, f func([]int)) {
	c := make([]int, size)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == size {
			f(c)
			return
		}
		for x := from; x <= k-(size-i-1); x++ {
			c[i] = x
			rec(i+1, x+1)
		}
	}
	rec(0, 1)
}
