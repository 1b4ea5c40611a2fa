package cellgame

import (
	"bytes"
	"context"
	"errors"
	"math/bits"
	"runtime"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

// kayles and dominoes are Node Kayles and Cram written cell by cell, with
// nothing of the bitboard tricks, for checking the solver.
type kayles struct{}

func (kayles) Options(dst []Board, s Board, h, w int) []Board {
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			if !s.Has(r, c) {
				continue
			}
			o := s
			for _, d := range [5][2]int{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if rr, cc := r+d[0], c+d[1]; rr >= 0 && rr < h && cc >= 0 && cc < w {
					o[rr] &^= 1 << uint(cc)
				}
			}
			dst = append(dst, o)
		}
	}
	return dst
}

type dominoes struct{}

func (dominoes) Options(dst []Board, s Board, h, w int) []Board {
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			if !s.Has(r, c) {
				continue
			}
			if c+1 < w && s.Has(r, c+1) {
				o := s
				o[r] &^= 3 << uint(c)
				dst = append(dst, o)
			}
			if r+1 < h && s.Has(r+1, c) {
				o := s
				o[r] &^= 1 << uint(c)
				o[r+1] &^= 1 << uint(c)
				dst = append(dst, o)
			}
		}
	}
	return dst
}

// fromMask lays the bits of m out as an h × w board, row after row.
func fromMask(m uint64, h, w int) Board {
	var b Board
	for r := 0; r < h; r++ {
		b[r] = m >> uint(r*w) & (1<<uint(w) - 1)
	}
	return b
}

// bfs is the component of (r, c) found one cell at a time.
func bfs(s Board, r, c, h, w int) Board {
	var k Board
	stack := [][2]int{{r, c}}
	k[r] |= 1 << uint(c)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			rr, cc := p[0]+d[0], p[1]+d[1]
			if rr >= 0 && rr < h && cc >= 0 && cc < w && s.Has(rr, cc) && !k.Has(rr, cc) {
				k[rr] |= 1 << uint(cc)
				stack = append(stack, [2]int{rr, cc})
			}
		}
	}
	return k
}

func TestRunsAndComponents(t *testing.T) {
	for _, hw := range [][2]int{{1, 9}, {3, 4}, {4, 4}, {2, 8}} {
		h, w := hw[0], hw[1]
		for m := uint64(0); m < 1<<uint(h*w); m += 1 + m/997 {
			s := fromMask(m, h, w)
			for r := 0; r < h; r++ {
				for x := s[r]; x != 0; x &= x - 1 {
					c := bits.TrailingZeros64(x)
					if got, want := component(&s, r, c, h), bfs(s, r, c, h, w); got != want {
						t.Fatalf("%d×%d %x: component of (%d,%d) = %v, want %v", h, w, m, r, c, got, want)
					}
				}
			}
		}
	}
	// runs with several seeds in one run, and runs at both ends of a word
	for _, tc := range []struct{ x, s, want uint64 }{
		{0b0001010, 0b0111110, 0b0111110},
		{1, ^uint64(0), ^uint64(0)},
		{1 << 63, 1<<63 | 1<<62 | 1, 1<<63 | 1<<62},
		{0b100, 0b1101101, 0b1100},
	} {
		if got := runs(tc.x, tc.s); got != tc.want {
			t.Errorf("runs(%b, %b) = %b, want %b", tc.x, tc.s, got, tc.want)
		}
	}
}

// The key of a shape is the same for its eight images when folding.
func TestCanonicalUnderSymmetries(t *testing.T) {
	s, _ := New(kayles{}, Options{Fold: true})
	wk := s.newWorker(context.Background())
	for _, hw := range [][2]int{{3, 3}, {2, 5}, {3, 4}} {
		h, w := hw[0], hw[1]
		for m := uint64(1); m < 1<<uint(h*w); m++ {
			b := fromMask(m, h, w)
			want := wk.canon(&b, h).key
			images := []Board{flipRows(&b, h)}
			var mb Board
			for r := 0; r < h; r++ {
				mb[r] = bits.Reverse64(b[r]) >> uint(64-w)
			}
			images = append(images, mb, flipRows(&mb, h))
			tb := transpose(&b, h, w) // w × h, w rows
			images = append(images, tb, flipRows(&tb, w))
			for i, im := range images {
				hh := h
				if i >= 3 {
					hh = w
				}
				if hh > MaxRows {
					continue
				}
				if got := wk.canon(&im, hh).key; got != want {
					t.Fatalf("%d×%d %x image %d: key %x, want %x", h, w, m, i, got, want)
				}
			}
		}
	}
}

// Every position of small frames, folded or not, one worker or two,
// against the generic mex solver on whole boards.
func TestAgainstGenericSolver(t *testing.T) {
	frames := [][2]int{{1, 8}, {2, 5}, {3, 3}, {3, 4}, {4, 3}, {4, 4}}
	if testing.Short() {
		frames = frames[:5]
	}
	rules := map[string]Rule{"kayles": kayles{}, "dominoes": dominoes{}}
	for name, rule := range rules {
		for _, hw := range frames {
			h, w := hw[0], hw[1]
			moves := game.MoveFunc[Board](func(p Board) ([]Board, error) { return rule.Options(nil, p, h, w), nil })
			ref, err := game.NewSolver[Board](moves, game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range []Options{{Fold: true}, {}, {Fold: true, Workers: 2}} {
				s, _ := New(rule, opts)
				for m := uint64(0); m < 1<<uint(h*w); m++ {
					b := fromMask(m, h, w)
					want, err := ref.Grundy(b)
					if err != nil {
						t.Fatal(err)
					}
					got, err := s.Value(context.Background(), b, h, w)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("%s %d×%d %+v %x: %d, want %d", name, h, w, opts, m, got, want)
					}
				}
			}
		}
	}
}

func TestLimitsAndErrors(t *testing.T) {
	s, _ := New(kayles{}, Options{Fold: true, MaxEntries: 10})
	if _, err := s.Value(context.Background(), Full(3, 8), 3, 8); !errors.Is(err, ErrMemoFull) {
		t.Errorf("memo of 10 entries: err %v, want ErrMemoFull", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ = New(kayles{}, Options{Fold: true})
	if _, err := s.Value(ctx, Full(3, 14), 3, 14); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
	for _, hw := range [][2]int{{0, 3}, {9, 9}, {3, 65}, {6, 30}} {
		if err := CheckFrame(hw[0], hw[1]); err == nil {
			t.Errorf("CheckFrame(%d, %d) = nil", hw[0], hw[1])
		}
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) = nil error")
	}
}

// Cancelled while it runs, the solver stops within 1024 components a
// worker (the context is looked at every 1024 solved): work pinned, not
// time.
func TestCancelWhileRunning(t *testing.T) {
	s, _ := New(kayles{}, Options{Fold: true, Workers: 2})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Value(ctx, Full(3, 30), 3, 30)
		done <- err
	}()
	for s.Stats().Solved < 5000 {
		runtime.Gosched()
	}
	cancel()
	at := s.Stats().Solved
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if extra := s.Stats().Solved - at; extra > 2*1024+2 {
		t.Errorf("%d components solved after the cancellation, want at most %d", extra, 2*1024+2)
	}
}

// A memo saved and loaded gives the same values without solving again,
// and a memo of another rule or folding is refused.
func TestSaveLoad(t *testing.T) {
	s, _ := New(kayles{}, Options{Fold: true})
	if _, err := s.Value(context.Background(), Full(3, 10), 3, 10); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	l, _ := New(kayles{}, Options{Fold: true})
	if err := l.Load(bytes.NewReader(saved)); err != nil {
		t.Fatal(err)
	}
	if got, want := l.Stats().Entries, s.Stats().Entries; got != want {
		t.Errorf("loaded %d entries, saved %d", got, want)
	}
	v, err := l.Value(context.Background(), Full(3, 10), 3, 10)
	if err != nil || v != 3 || l.Stats().Solved != 0 {
		t.Errorf("3 × 10 from the loaded memo: %d, %v, %d solved", v, err, l.Stats().Solved)
	}
	other, _ := New(dominoes{}, Options{Fold: true})
	if err := other.Load(bytes.NewReader(saved)); err == nil {
		t.Error("a Node Kayles memo loaded into a Cram solver")
	}
	unfolded, _ := New(kayles{}, Options{})
	if err := unfolded.Load(bytes.NewReader(saved)); err == nil {
		t.Error("a folded memo loaded into an unfolded solver")
	}
	if err := l.Load(bytes.NewReader(saved[:len(saved)-3])); err == nil {
		t.Error("a truncated memo: no error")
	}
}

// The progress in the context counts the components solved and its label
// says the memo's size.
func TestProgress(t *testing.T) {
	p := budget.NewProgress()
	ctx := budget.WithProgress(context.Background(), p)
	s, _ := New(kayles{}, Options{Fold: true, Workers: 2})
	if _, err := s.Value(ctx, Full(3, 13), 3, 13); err != nil {
		t.Fatal(err)
	}
	snap := p.Snapshot()
	if snap.Done != s.Stats().Solved-1 && snap.Done != s.Stats().Solved {
		t.Errorf("progress %d, solved %d", snap.Done, s.Stats().Solved)
	}
	if !strings.Contains(snap.String(), "components solved (memo ") || !strings.Contains(snap.String(), " entries)") {
		t.Errorf("progress line %q, want the memo's size", snap.String())
	}
}
