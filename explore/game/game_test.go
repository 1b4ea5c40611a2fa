package game

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
)

// nim3 is three-heap Nim on a fixed array, the oldest solved game (Bouton 1901).
func nim3(p [3]int) ([][3]int, error) {
	var out [][3]int
	for i, h := range p {
		for k := 0; k < h; k++ {
			q := p
			q[i] = k
			out = append(out, q)
		}
	}
	return out, nil
}

func TestGrundyMatchesNimSum(t *testing.T) {
	s, err := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for a := 0; a < 8; a++ {
		for b := 0; b < 8; b++ {
			for c := 0; c < 8; c++ {
				g, err := s.Grundy([3]int{a, b, c})
				if err != nil {
					t.Fatal(err)
				}
				if want := uint64(a ^ b ^ c); g != want {
					t.Errorf("g(%d,%d,%d) = %d, want %d", a, b, c, g, want)
				}
			}
		}
	}
}

func TestMisereNim(t *testing.T) {
	s, err := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{Play: Misere})
	if err != nil {
		t.Fatal(err)
	}
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			for c := 0; c < 6; c++ {
				p := [3]int{a, b, c}
				o, err := s.Outcome(p)
				if err != nil {
					t.Fatal(err)
				}
				// MATH.md: misère Nim is normal Nim unless every heap is ≤ 1,
				// where P ⇔ the number of heaps of size 1 is odd.
				want := N
				if a <= 1 && b <= 1 && c <= 1 {
					if (a+b+c)%2 == 1 {
						want = P
					}
				} else if a^b^c == 0 {
					want = P
				}
				if o != want {
					t.Errorf("misère %v: %v, want %v", p, o, want)
				}
			}
		}
	}
}

func TestWinningMoves(t *testing.T) {
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{})
	tests := []struct {
		name string
		from [3]int
		want [][3]int
	}{
		{"P-position has none", [3]int{1, 2, 3}, nil},
		{"one move", [3]int{1, 2, 4}, [][3]int{{1, 2, 3}}},
		{"three moves", [3]int{3, 5, 7}, [][3]int{{2, 5, 7}, {3, 4, 7}, {3, 5, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.WinningMoves(tt.from)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestSumIsNimSum(t *testing.T) {
	sub := MoveFunc[int](func(n int) ([]int, error) { // subtraction {1,2}: g = n mod 3
		var out []int
		for _, s := range []int{1, 2} {
			if n >= s {
				out = append(out, n-s)
			}
		}
		return out, nil
	})
	sum := Sum[int, [3]int](sub, MoveFunc[[3]int](nim3))
	s, _ := NewSolver(sum, Options{})
	for n := 0; n < 10; n++ {
		p := Pair[int, [3]int]{n, [3]int{1, 2, 5}}
		g, err := s.Grundy(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(n%3) ^ (1 ^ 2 ^ 5); g != want {
			t.Errorf("g(%v) = %d, want %d", p, g, want)
		}
	}
}

func TestCycleIsReported(t *testing.T) {
	cyc := MoveFunc[int](func(n int) ([]int, error) { return []int{(n + 1) % 3}, nil })
	s, _ := NewSolver[int](cyc, Options{})
	_, err := s.Grundy(0)
	var ce *CycleError[int]
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a CycleError", err)
	}
	if len(ce.Cycle) != 3 || !strings.Contains(err.Error(), "0 → 1 → 2 → 0") {
		t.Errorf("cycle %v, message %q", ce.Cycle, err)
	}
}

func TestBudget(t *testing.T) {
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{MaxPositions: 50})
	_, err := s.Grundy([3]int{9, 9, 9})
	if !errors.Is(err, ErrTooManyPositions) {
		t.Fatalf("err = %v, want ErrTooManyPositions", err)
	}
	if !strings.Contains(err.Error(), "50") {
		t.Errorf("message does not name the limit: %v", err)
	}
}

func TestDeepChainIsIterative(t *testing.T) {
	// A chain of a million positions would overflow a recursive solver's
	// stack on small goroutine stacks; the iterative one only uses memory.
	chain := MoveFunc[int](func(n int) ([]int, error) {
		if n == 0 {
			return nil, nil
		}
		return []int{n - 1}, nil
	})
	s, _ := NewSolver[int](chain, Options{})
	g, err := s.Grundy(1_000_000)
	if err != nil || g != 0 {
		t.Fatalf("g = %d, %v; want 0", g, err)
	}
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{Context: ctx})
	if _, err := s.Grundy([3]int{20, 20, 20}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestCancelCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted"))
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{Context: ctx})
	_, err := s.Grundy([3]int{20, 20, 20})
	if err == nil || err.Error() != "game: interrupted" || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want game: interrupted", err)
	}
}

// TestCancelLong stops a search of millions of positions soon after the
// cancellation, not at its end.
func TestCancelLong(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	chain := MoveFunc[int](func(n int) ([]int, error) {
		if n == 0 {
			return nil, nil
		}
		if n == 99_999_000 {
			cancel()
		}
		return []int{n - 1}, nil
	})
	s, _ := NewSolver[int](chain, Options{Context: ctx, MaxPositions: 1 << 30})
	if _, err := s.Grundy(100_000_000); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if s.Len() != 0 {
		t.Errorf("%d positions solved after the cancellation", s.Len())
	}
}

func TestMaxMemory(t *testing.T) {
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{MaxMemory: 1 << 16})
	_, err := s.Grundy([3]int{30, 30, 30})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "more than the memory limit of 64 KiB (raise it with --max-memory or limits.memory)") {
		t.Fatalf("err = %v", err)
	}
	s, _ = NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{MaxMemory: 1 << 20})
	if g, err := s.Grundy([3]int{3, 5, 6}); err != nil || g != 0 {
		t.Fatalf("(3,5,6) within 1 MiB: %d, %v", g, err)
	}
}

func TestMoveErrorIsWrapped(t *testing.T) {
	boom := errors.New("boom")
	bad := MoveFunc[int](func(n int) ([]int, error) { return nil, boom })
	s, _ := NewSolver[int](bad, Options{})
	if _, err := s.Grundy(3); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

func TestPPositionsAndReachable(t *testing.T) {
	s, _ := NewSolver[[3]int](MoveFunc[[3]int](nim3), Options{})
	all, err := s.Reachable([3]int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 24 { // MATH.md: ordered tuples below (1,2,3) are 2·3·4 = 24
		t.Errorf("%d positions, want 24", len(all))
	}
	ps, _ := s.PPositions([3]int{1, 2, 3})
	for _, p := range ps {
		if p[0]^p[1]^p[2] != 0 {
			t.Errorf("%v is not a P-position", p)
		}
	}
	if len(ps) != 6 { // (0,0,0) (1,1,0) (0,2,2) (1,0,1) (0,3,3)... counted below
		want := 0
		for _, p := range all {
			if p[0]^p[1]^p[2] == 0 {
				want++
			}
		}
		if len(ps) != want {
			t.Errorf("%d P-positions, want %d", len(ps), want)
		}
	}
}

func TestMex(t *testing.T) {
	tests := []struct {
		in   []uint64
		want uint64
	}{{nil, 0}, {[]uint64{1, 2}, 0}, {[]uint64{0, 1, 3}, 2}, {[]uint64{2, 0, 1, 1}, 3}}
	for _, tt := range tests {
		if got := Mex(tt.in); got != tt.want {
			t.Errorf("Mex(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
