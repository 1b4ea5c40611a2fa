package record

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

// nim is Nim on four ordered heaps: take at least one token from one heap.
// Options are listed heap by heap, largest remainder first.
var nim = game.MoveFunc[[4]int](func(p [4]int) ([][4]int, error) {
	var out [][4]int
	for i, h := range p {
		for k := h - 1; k >= 0; k-- {
			q := p
			q[i] = k
			out = append(out, q)
		}
	}
	return out, nil
})

// seed 000 (Madore 2017), slide "Exemple de partie", which asks which move
// was bad.
var madore = [][4]int{
	{1, 3, 5, 7}, {1, 3, 5, 5}, {1, 3, 3, 5}, {1, 3, 3, 1},
	{0, 3, 3, 1}, {0, 3, 3, 0}, {0, 3, 0, 0}, {0, 0, 0, 0},
}

func TestMadoreRecord(t *testing.T) {
	a, err := Analyse(nim, madore, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Moves) != 7 || a.Illegal != -1 {
		t.Fatalf("%d moves, illegal %d; want 7, -1", len(a.Moves), a.Illegal)
	}
	// seed 000, slide "la position initiale (1, 3, 5, 7) est P".
	if a.StartOutcome != game.P {
		t.Errorf("start is %v, want P", a.StartOutcome)
	}
	// Grundy values are nim-sums (Bouton); 0 marks the P-positions.
	wantG := []uint64{0, 2, 4, 0, 1, 0, 3, 0}
	for i, m := range a.Moves {
		if m.GrundyBefore != wantG[i] || m.GrundyAfter != wantG[i+1] {
			t.Errorf("move %d: g %d→%d, want %d→%d", i, m.GrundyBefore, m.GrundyAfter, wantG[i], wantG[i+1])
		}
		if m.Player != 1+i%2 || !m.Legal {
			t.Errorf("move %d: player %d, legal %v", i, m.Player, m.Legal)
		}
	}
	// The bad move is player 2's (1,3,5,5) → (1,3,3,5). seed 000, slide
	// "Exemple (calcul d'un coup gagnant)": from (1,3,5,5) the winning move
	// takes heap 2 from 3 to 1, i.e. to (1,1,5,5), and it is the only one.
	if got := a.Mistakes(); !slices.Equal(got, []int{1}) {
		t.Fatalf("mistakes %v, want [1]", got)
	}
	m := a.Moves[1]
	if m.Player != 2 || !slices.Equal(m.Missed, [][4]int{{1, 1, 5, 5}}) {
		t.Errorf("mistake by player %d, missed %v; want player 2, [[1 1 5 5]]", m.Player, m.Missed)
	}
	for i, m := range a.Moves {
		if i != 1 && m.Missed != nil {
			t.Errorf("move %d is not a mistake but lists %v", i, m.Missed)
		}
	}
	// Player 1 takes the last token.
	if !a.Over || a.Winner != 1 {
		t.Errorf("over %v, winner %d; want true, 1", a.Over, a.Winner)
	}
}

func TestIllegal(t *testing.T) {
	tests := []struct {
		name      string
		record    [][4]int
		illegalAt int
	}{
		{"two heaps", [][4]int{{1, 3, 5, 7}, {1, 3, 5, 6}, {1, 2, 4, 6}, {0, 2, 4, 6}}, 1},
		{"no change", [][4]int{{1, 3, 5, 7}, {1, 3, 5, 7}}, 0},
		{"adding tokens", [][4]int{{1, 3, 5, 7}, {1, 3, 5, 5}, {1, 3, 5, 5}}, 1},
		{"growing heap", [][4]int{{1, 3, 5, 7}, {2, 3, 5, 7}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Analyse(nim, tt.record, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Illegal != tt.illegalAt || len(a.Moves) != tt.illegalAt+1 {
				t.Fatalf("illegal %d after %d moves, want %d", a.Illegal, len(a.Moves), tt.illegalAt)
			}
			m := a.Moves[a.Illegal]
			if m.Legal || m.Mistake || a.Over || a.Winner != 0 {
				t.Errorf("illegal move analysed as %+v, over %v, winner %d", m, a.Over, a.Winner)
			}
			if !strings.Contains(a.String(), "ILLEGAL") {
				t.Errorf("summary does not flag the move:\n%s", a)
			}
		})
	}
}

func TestNoMistakes(t *testing.T) {
	// Player 1 starts from an N-position and always moves to a P-position;
	// player 2, moving from P-positions, cannot make a mistake.
	record := [][4]int{
		{1, 2, 4, 0}, {1, 2, 3, 0}, {0, 2, 3, 0}, {0, 2, 2, 0},
		{0, 1, 2, 0}, {0, 1, 1, 0}, {0, 0, 1, 0}, {0, 0, 0, 0},
	}
	a, err := Analyse(nim, record, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ms := a.Mistakes(); len(ms) != 0 {
		t.Errorf("mistakes %v in a perfect game", ms)
	}
	for _, m := range a.Moves {
		if m.Player == 1 && !m.Winning() {
			t.Errorf("move %d by player 1 is not winning", m.Index)
		}
	}
	if a.StartOutcome != game.N || !a.Over || a.Winner != 1 {
		t.Errorf("start %v, over %v, winner %d; want N, true, 1", a.StartOutcome, a.Over, a.Winner)
	}
	if !strings.HasSuffix(a.String(), "no mistakes\n") {
		t.Errorf("summary:\n%s", a)
	}
}

// misereP is the misère rule of seed 000, slide "Remarques diverses": the
// P-positions are those of normal play unless every heap has at most one
// token, in which case the rule is reversed.
func misereP(p [4]int) bool {
	x, small := 0, true
	for _, h := range p {
		x ^= h
		if h > 1 {
			small = false
		}
	}
	if small {
		return x == 1
	}
	return x == 0
}

func TestMisere(t *testing.T) {
	a, err := Analyse(nim, madore, Options{Play: game.Misere})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range a.Moves {
		if (m.Before == game.P) != misereP(m.From) || (m.After == game.P) != misereP(m.To) {
			t.Errorf("move %d: %v→%v, misère rule says P %v→%v", m.Index, m.Before, m.After, misereP(m.From), misereP(m.To))
		}
	}
	// Under misère play player 2's (1,3,5,5) → (1,3,3,5) is still the first
	// mistake; player 1's last move, taking the last token from (0,3,0,0)
	// instead of leaving one, is the second.
	if got := a.Mistakes(); !slices.Equal(got, []int{1, 6}) {
		t.Fatalf("mistakes %v, want [1 6]", got)
	}
	if got := a.Moves[6].Missed; !slices.Equal(got, [][4]int{{0, 1, 0, 0}}) {
		t.Errorf("missed %v, want [[0 1 0 0]]", got)
	}
	if !a.Over || a.Winner != 2 {
		t.Errorf("over %v, winner %d; want true, 2 (player 1 took the last token)", a.Over, a.Winner)
	}
}

func TestWinnerShortRecords(t *testing.T) {
	tests := []struct {
		name   string
		record [][4]int
		play   game.Play
		over   bool
		winner int
	}{
		{"terminal start normal", [][4]int{{}}, game.Normal, true, 2},
		{"terminal start misère", [][4]int{{}}, game.Misere, true, 1},
		{"one move normal", [][4]int{{0, 0, 2, 0}, {}}, game.Normal, true, 1},
		{"one move misère", [][4]int{{0, 0, 2, 0}, {}}, game.Misere, true, 2},
		{"two moves normal", [][4]int{{0, 0, 2, 0}, {0, 0, 1, 0}, {}}, game.Normal, true, 2},
		{"unfinished", [][4]int{{1, 3, 5, 7}, {1, 3, 5, 6}}, game.Normal, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Analyse(nim, tt.record, Options{Play: tt.play})
			if err != nil {
				t.Fatal(err)
			}
			if a.Over != tt.over || a.Winner != tt.winner {
				t.Errorf("over %v, winner %d; want %v, %d", a.Over, a.Winner, tt.over, tt.winner)
			}
		})
	}
}

// TestRandomRecords cross-checks every field of random legal Nim games
// against Bouton's rule (normal play) and the misère rule.
func TestRandomRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(1901, 2017))
	for trial := range 300 {
		p := [4]int{r.IntN(5), r.IntN(6), r.IntN(7), r.IntN(8)}
		record := [][4]int{p}
		for {
			ms, _ := nim(p)
			if len(ms) == 0 || r.IntN(12) == 0 {
				break
			}
			p = ms[r.IntN(len(ms))]
			record = append(record, p)
		}
		for _, play := range []game.Play{game.Normal, game.Misere} {
			isP := func(q [4]int) bool { return q[0]^q[1]^q[2]^q[3] == 0 }
			if play == game.Misere {
				isP = misereP
			}
			a, err := Analyse(nim, record, Options{Play: play})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Moves) != len(record)-1 || a.Illegal != -1 {
				t.Fatalf("trial %d: %d moves, illegal %d", trial, len(a.Moves), a.Illegal)
			}
			for _, m := range a.Moves {
				var missed [][4]int
				ms, _ := nim(m.From)
				for _, q := range ms {
					if isP(q) {
						missed = append(missed, q)
					}
				}
				mistake := !isP(m.From) && !isP(m.To)
				if !mistake {
					missed = nil
				}
				if m.Mistake != mistake || !slices.Equal(m.Missed, missed) {
					t.Errorf("trial %d, %v, move %v→%v: mistake %v missed %v; want %v %v", trial, play, m.From, m.To, m.Mistake, m.Missed, mistake, missed)
				}
				if g := uint64(m.From[0] ^ m.From[1] ^ m.From[2] ^ m.From[3]); m.GrundyBefore != g {
					t.Errorf("g%v = %d, want %d", m.From, m.GrundyBefore, g)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := Analyse(nim, nil, Options{}); err == nil {
		t.Error("empty record accepted")
	}
	if _, err := Analyse[int](nil, []int{1}, Options{}); err == nil {
		t.Error("nil mover accepted")
	}
	if _, err := Analyse(nim, madore, Options{MaxPositions: 10}); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("budget 10: err = %v, want ErrTooManyPositions", err)
	}
	_, err := Analyse(nim, [][4]int{{20, 20, 20, 20}, {19, 20, 20, 20}}, Options{MaxMemory: 1 << 16})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "more than the memory limit of 64 KiB") {
		t.Errorf("memory 64 KiB: err = %v", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted"))
	_, err = Analyse(nim, [][4]int{{20, 20, 20, 20}, {19, 20, 20, 20}}, Options{Context: ctx})
	if !errors.Is(err, context.Canceled) || !strings.HasSuffix(err.Error(), ": interrupted") {
		t.Errorf("cancelled: err = %v", err)
	}
	broken := game.MoveFunc[int](func(n int) ([]int, error) {
		if n < 0 {
			return nil, errors.New("negative heap")
		}
		return []int{n - 1}, nil
	})
	_, err = Analyse(broken, []int{1, 0}, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "record: ") {
		t.Errorf("failing move function: err = %v", err)
	}
}

func BenchmarkAnalyse(b *testing.B) {
	for b.Loop() {
		if _, err := Analyse(nim, madore, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
