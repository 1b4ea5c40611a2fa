package wythoff

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/nimbook/nimbook/explore/game"
)

// MaxPPairs is the largest bound PPairs accepts; the answer then holds
// about 0.76·MaxPPairs pairs.
const MaxPPairs = 1 << 22

// beatty returns ⌊kφ⌋ for 0 ≤ k < 2^30, exactly: kφ = (k + √(5k²))/2 and,
// k being an integer, ⌊(k + √(5k²))/2⌋ = ⌊(k + isqrt(5k²))/2⌋.
func beatty(k int) int {
	return (k + isqrt(5*k*k)) / 2
}

// isqrt returns ⌊√n⌋ for n ≥ 0 by Newton's method on integers.
func isqrt(n int) int {
	if n < 2 {
		return n
	}
	x := n
	y := (x + 1) / 2
	for y < x {
		x = y
		y = (x + n/x) / 2
	}
	return x
}

// PPairs returns the P-positions of normal-play Wythoff with both heaps at
// most max: the Beatty pairs (⌊kφ⌋, ⌊kφ²⌋) = (a_k, a_k + k) and their
// mirrors, sorted. It refuses max > MaxPPairs; max < 0 gives none.
func PPairs(max int) ([][2]int, error) {
	if max > MaxPPairs {
		return nil, fmt.Errorf("wythoff: P-pairs up to %d: more than MaxPPairs = %d: %w", max, MaxPPairs, ErrTooLarge)
	}
	var ps [][2]int
	for k := 0; ; k++ {
		a := beatty(k)
		b := a + k
		if b > max {
			break
		}
		ps = append(ps, [2]int{a, b})
		if k > 0 {
			ps = append(ps, [2]int{b, a})
		}
	}
	slices.SortFunc(ps, comparePos)
	return ps, nil
}

func comparePos(p, q [2]int) int {
	if c := cmp.Compare(p[0], q[0]); c != 0 {
		return c
	}
	return cmp.Compare(p[1], q[1])
}

// isNormalP reports whether (a, b), a, b ≥ 0, is a normal-play P-position:
// with k = |b − a|, the smaller heap is ⌊kφ⌋.
func isNormalP(a, b int) bool {
	if a > b {
		a, b = b, a
	}
	k := b - a
	if k < 1<<30 {
		return a == beatty(k)
	}
	// a = ⌊kφ⌋ ⇔ 2a − k ≤ k√5 < 2a + 2 − k; here 2a − k > 0 since a ≥ k, so
	// compare squares, exactly (the products pass 64 bits).
	lo := new(big.Int).SetInt64(int64(a))
	lo.Lsh(lo, 1).Sub(lo, big.NewInt(int64(k)))
	hi := new(big.Int).Add(lo, big.NewInt(2))
	k5 := big.NewInt(int64(k))
	k5.Mul(k5, k5).Mul(k5, big.NewInt(5))
	return lo.Sign() > 0 && lo.Mul(lo, lo).Cmp(k5) < 0 && hi.Mul(hi, hi).Cmp(k5) > 0
}

// MaxNormalHeap is the largest heap WinningMoves takes under normal play
// (the heaps of a job file are at most 2^40).
const MaxNormalHeap = 1 << 50

// MaxHeap bounds a heap of a position that job files, notebooks and play
// accept: outcomes and moves of normal play are O(1) up to MaxNormalHeap,
// and 2^40 keeps a position's text short. One bound for every way in.
const MaxHeap = 1 << 40

// lower returns ⌊kφ⌋ for k ≥ 0, exactly.
func lower(k int) int {
	if k < 1<<30 {
		return beatty(k)
	}
	k5 := big.NewInt(int64(k))
	k5.Mul(k5, k5).Mul(k5, big.NewInt(5))
	return (k + int(k5.Sqrt(k5).Int64())) / 2
}

// partner returns the y with (a, y) a normal-play P-position, a ≥ 0. By
// Beatty's theorem a ≥ 1 is ⌊kφ⌋ (then y = a + k) or ⌊kφ²⌋ = ⌊kφ⌋ + k
// (then y = a − k) for exactly one k ≥ 1; k is near a/φ or a/φ², which
// floating point finds to within one for a ≤ MaxNormalHeap, and lower
// checks exactly.
func partner(a int) int {
	if a == 0 {
		return 0
	}
	const phi = 1.6180339887498949
	k0 := int(float64(a) / phi)
	for k := max(1, k0-2); k <= k0+2; k++ {
		if lower(k) == a {
			return a + k
		}
	}
	k1 := int(float64(a) / (phi * phi))
	for k := max(1, k1-2); k <= k1+2; k++ {
		if lower(k)+k == a {
			return a - k
		}
	}
	panic(fmt.Sprintf("wythoff: no P-position in row %d", a))
}

// normalWinning returns the normal-play winning moves of (a, b) without
// listing its a + b + min(a, b) options: a row, a column and a diagonal
// each hold one P-position, so at most three moves win.
func normalWinning(a, b int) ([][2]int, error) {
	if a > MaxNormalHeap || b > MaxNormalHeap {
		return nil, fmt.Errorf("wythoff: position (%d, %d): heaps above %d are not supported", a, b, MaxNormalHeap)
	}
	win := [][2]int{}
	if y := partner(a); y < b {
		win = append(win, [2]int{a, y})
	}
	if x := partner(b); x < a {
		win = append(win, [2]int{x, b})
	}
	// The diagonal through (a, b) keeps b − a; its P-position is (0, 0)
	// when that is 0, else (⌊kφ⌋, ⌊kφ⌋ + k) for k = |b − a|, or its mirror.
	if k := b - a; k == 0 {
		if a > 0 {
			win = append(win, [2]int{0, 0})
		}
	} else {
		if d := min(a, b) - lower(max(k, -k)); d > 0 {
			win = append(win, [2]int{a - d, b - d})
		}
	}
	slices.SortFunc(win, comparePos)
	return slices.Compact(win), nil
}

// Moves returns every option of position p in increasing order (p[0],
// then p[1]); none when a heap is negative.
func Moves(p [2]int) [][2]int {
	a, b := p[0], p[1]
	if a < 0 || b < 0 {
		return nil
	}
	out := make([][2]int, 0, a+b+min(a, b))
	for x := 0; x < a; x++ {
		if d := a - x; d <= b {
			out = append(out, [2]int{x, b - d}) // from both heaps
		}
		out = append(out, [2]int{x, b})
	}
	for y := 0; y < b; y++ {
		out = append(out, [2]int{a, y})
	}
	return out
}

// MovesOptions is Moves refusing, before it allocates, a position with
// more options than opts.MaxCells or whose list would pass opts.MaxMemory:
// (a, b) has a + b + min(a, b) options, so heaps near 2^40 have trillions.
func MovesOptions(p [2]int, opts Options) ([][2]int, error) {
	a, b := p[0], p[1]
	if err := checkPos(a, b); err != nil {
		return nil, err
	}
	max, err := opts.maxCells()
	if err != nil {
		return nil, err
	}
	n := uint64(a) + uint64(b) + uint64(min(a, b))
	if n > uint64(max) {
		return nil, fmt.Errorf("wythoff: (%d, %d) has %d moves, more than the limit of %d positions: %w (raise it with --max-positions or limits.positions in the job file)", a, b, n, max, ErrTooLarge)
	}
	if err := opts.checkMemory(fmt.Sprintf("listing the %d moves of (%d, %d)", n, a, b), int64(n)*16+64); err != nil {
		return nil, err
	}
	return Moves(p), nil
}

// NewMover returns Wythoff's game for the generic solver, refusing negative
// heaps and positions with more options than opts allow (see MovesOptions).
func NewMover(opts Options) game.Mover[[2]int] {
	return game.MoveFunc[[2]int](func(p [2]int) ([][2]int, error) { return MovesOptions(p, opts) })
}

// Mover is NewMover with the default budgets.
var Mover = NewMover(Options{})

// Reachable returns the number of positions reachable from (a, b), (a, b)
// included: every (x, y) with x ≤ a and y ≤ b, so (a+1)(b+1), saturated
// at the largest uint64. A solver of the whole game graph (misère play, a
// drawn graph, a record) stores that many; compare it with the budget
// before starting.
func Reachable(a, b int) uint64 {
	if a < 0 || b < 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a)+1, uint64(b)+1)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func checkPos(a, b int) error {
	if a < 0 || b < 0 {
		return fmt.Errorf("wythoff: position (%d, %d): heaps must not be negative", a, b)
	}
	return nil
}

func checkPlay(play game.Play) error {
	if play != game.Normal && play != game.Misere {
		return fmt.Errorf("wythoff: unknown play %d", int(play))
	}
	return nil
}

// misereP solves misère Wythoff on every position (x, y) ≤ (a, b): a
// position is P when it is not terminal (the last mover loses, so the
// player facing (0, 0) wins) and no option is P. Flags per column and
// diagonal record whether a P-position was met above or up-left, so each
// cell costs O(1) instead of a scan of its options. The result is
// row-major over (a+1) × (b+1).
func misereP(a, b int, opts Options) ([]bool, error) {
	max, err := opts.maxCells()
	if err != nil {
		return nil, err
	}
	if a >= max || b >= max || a+1 > max/(b+1) {
		return nil, fmt.Errorf("wythoff: misère play from (%d, %d) is solved on all %d×%d smaller positions, more than %d: %w (raise it with --max-positions or limits.positions in the job file)", a, b, uint64(a)+1, uint64(b)+1, max, ErrTooLarge)
	}
	rows, cols := a+1, b+1
	if err := opts.checkMemory(fmt.Sprintf("misère play from (%d, %d)", a, b), int64(rows)*int64(cols)+2*int64(rows+cols)); err != nil {
		return nil, err
	}
	if err := opts.stopped(); err != nil {
		return nil, err
	}
	isP := make([]bool, rows*cols)
	colP := make([]bool, cols)
	diagP := make([]bool, rows+cols-1) // diagonal y − x at y − x + rows − 1
	work := 0
	for x := range rows {
		rowP := false
		for y := range cols {
			if work++; work == ctxEvery {
				work = 0
				if err := opts.stopped(); err != nil {
					return nil, err
				}
			}
			d := y - x + rows - 1
			if (x != 0 || y != 0) && !rowP && !colP[y] && !diagP[d] {
				isP[x*cols+y] = true
				rowP, colP[y], diagP[d] = true, true, true
			}
		}
	}
	return isP, nil
}

// Outcome returns game.P or game.N for position (a, b) under play. Normal
// play uses the Beatty pairs (O(1)); misère play solves the whole game
// graph of (a, b), (a+1)(b+1) positions within DefaultMaxCells.
func Outcome(a, b int, play game.Play) (game.Outcome, error) {
	return OutcomeOptions(a, b, play, Options{})
}

// OutcomeOptions is Outcome with a cell budget and a context for misère play.
func OutcomeOptions(a, b int, play game.Play, opts Options) (game.Outcome, error) {
	if err := checkPos(a, b); err != nil {
		return game.N, err
	}
	if err := checkPlay(play); err != nil {
		return game.N, err
	}
	if play == game.Normal {
		return outcome(isNormalP(a, b)), nil
	}
	isP, err := misereP(a, b, opts)
	if err != nil {
		return game.N, err
	}
	return outcome(isP[len(isP)-1]), nil
}

func outcome(p bool) game.Outcome {
	if p {
		return game.P
	}
	return game.N
}

// WinningMoves returns the options of (a, b) that are P-positions under
// play, sorted; none from a P-position. Misère play solves the whole game
// graph of (a, b) within DefaultMaxCells positions.
func WinningMoves(a, b int, play game.Play) ([][2]int, error) {
	return WinningMovesOptions(a, b, play, Options{})
}

// WinningMovesOptions is WinningMoves with a cell budget and a context for
// misère play.
func WinningMovesOptions(a, b int, play game.Play, opts Options) ([][2]int, error) {
	if err := checkPos(a, b); err != nil {
		return nil, err
	}
	if err := checkPlay(play); err != nil {
		return nil, err
	}
	if play == game.Normal {
		return normalWinning(a, b)
	}
	ps, err := misereP(a, b, opts)
	if err != nil {
		return nil, err
	}
	isP := func(x, y int) bool { return ps[x*(b+1)+y] }
	win := [][2]int{}
	for _, q := range Moves([2]int{a, b}) {
		if isP(q[0], q[1]) {
			win = append(win, q)
		}
	}
	return win, nil
}
