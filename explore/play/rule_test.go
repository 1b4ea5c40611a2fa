package play

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// newNim is Nim (at most maxTake tokens a move, 0: any number) under pl,
// built from its rule as a job section builds it.
func newNim(maxTake int, pl game.Play) (*Heaps, error) {
	r, ok := heap.Lookup("nim")
	if !ok {
		return nil, fmt.Errorf("no nim rule")
	}
	p := heap.Params{}
	if maxTake > 0 {
		p["max-take"] = maxTake
	}
	return NewHeapRule(r, p, pl, heap.Limits{})
}

// ruleGame is the game of the registered rule name with params, normal
// play.
func ruleGame(t testing.TB, name string, p heap.Params) *Heaps {
	t.Helper()
	r, ok := heap.Lookup(name)
	if !ok {
		t.Fatalf("no rule %q", name)
	}
	g, err := NewHeapRule(r, p, game.Normal, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// takeaway is the heap game of the test-only rule test-takeaway: take 1 to
// most tokens from a heap. It has none of the optional capabilities, as a
// rule defined in Starlark.
type takeaway struct{ most int }

func (g takeaway) String() string { return fmt.Sprintf("take-away (1 to %d)", g.most) }

func (g takeaway) Options(n int) [][]int {
	var out [][]int
	for k := 1; k <= g.most && k <= n; k++ {
		if k == n {
			out = append(out, []int{})
		} else {
			out = append(out, []int{n - k})
		}
	}
	return out
}

func (g takeaway) Values(upto int, _ heap.Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	for n := range vs {
		vs[n] = uint64(n % (g.most + 1))
	}
	return vs, nil
}

// halves is the heap game of the test-only rule test-halves: a move
// splits an even heap into two equal halves, or takes a whole heap of 1.
// It splits without saying so by a digit (no heap.Splitter).
type halves struct{}

func (halves) String() string { return "halves" }

func (halves) Options(n int) [][]int {
	switch {
	case n == 1:
		return [][]int{{}}
	case n > 0 && n%2 == 0:
		return [][]int{{n / 2, n / 2}}
	}
	return nil
}

func (g halves) Values(upto int, _ heap.Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	for n := range vs {
		var seen []uint64
		for _, o := range g.Options(n) {
			var x uint64
			for _, a := range o {
				x ^= vs[a]
			}
			seen = append(seen, x)
		}
		for slices.Contains(seen, vs[n]) {
			vs[n]++
		}
	}
	return vs, nil
}

func init() {
	heap.Register(&heap.Rule{
		Name:  "test-takeaway",
		Order: 1000,
		Text:  map[string]string{"en": "take 1 to most tokens from one heap"},
		Params: []heap.Param{
			{Key: "most", Kind: heap.Int, Min: 1, Max: 100, What: "the most one may take", Example: "2",
				Missing: "write the most one may take, e.g. most: 2"},
			heap.UptoParam(50),
		},
		Start: []int{4, 5},
		New:   func(p heap.Params) (heap.Game, error) { return takeaway{p.Int("most")}, nil },
	})
	heap.Register(&heap.Rule{
		Name:   "test-halves",
		Order:  1001,
		Text:   map[string]string{"en": "split an even heap into halves"},
		Params: []heap.Param{heap.UptoParam(50)},
		New:    func(heap.Params) (heap.Game, error) { return halves{}, nil },
	})
}

// sectionOf parses a job file of one section whose game is given.
func sectionOf(t *testing.T, gameYAML string) *job.Section {
	t.Helper()
	j, err := job.Parse("rule.yaml", []byte("title: A rule\nsections:\n  - title: The game\n    game: "+gameYAML+"\n    show: [values]\n"))
	if err != nil {
		t.Fatal(err)
	}
	return j.Sections[0]
}

// TestRegisteredRule plays a rule registered by this test, which play
// knows of only through the registry: from a job section, its moves are
// read, a move it does not allow is refused in general words, the help
// explains it, a saved record is a job file the runner analyses.
func TestRegisteredRule(t *testing.T) {
	if !Playable("test-takeaway") || !slices.Contains(Families(), "test-takeaway") {
		t.Fatalf("test-takeaway is not playable: %v", Families())
	}
	s := sectionOf(t, "{test-takeaway: {most: 2, position: [4, 5]}}")
	g, start, err := FromSection(s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(start, []int{4, 5}) || g.String() != "take-away (1 to 2)" {
		t.Fatalf("%v from %v", g, start)
	}
	if err := g.Check(start); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string][]int{"1 2": {2, 5}, "2 1": {4, 4}, "(4,3)": {4, 3}} {
		if q, err := g.ParseMove(start, in); err != nil || !slices.Equal(q, want) {
			t.Errorf("%q: %v %v, want %v", in, q, err, want)
		}
	}
	for in, want := range map[string]string{
		"1 3": "taking 3 from a heap of 4 is not a move of take-away (1 to 2)",
		"1 0": "taking 0 from a heap of 4 is not a move of take-away (1 to 2)",
		"3 1": "there is no heap 3",
	} {
		if _, err := g.ParseMove(start, in); !IsIllegal(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	help := g.Notation()
	if !strings.Contains(help, "The rule: take-away (1 to 2): a move replaces one heap by the heaps of one of its options (type hint to see them).") ||
		strings.Contains(help, "split") {
		t.Errorf("help:\n%s", help)
	}
	if got, want := g.JobGame(start), "{test-takeaway: {most: 2}}"; got != want {
		t.Errorf("JobGame = %s, want %s", got, want)
	}
	// A game to its end, saved and analysed.
	var out bytes.Buffer
	b := &bot{g: g, rng: rand2(5)}
	rec, err := Run(context.Background(), g, start, b, &out, Options{Seed: 1, OnTurn: func(p []int, _ Player) { b.pos = p }})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Winner == Nobody {
		t.Fatalf("the game is not over:\n%s", out.String())
	}
	var file bytes.Buffer
	if err := rec.WriteJob(&file); err != nil {
		t.Fatal(err)
	}
	j, err := job.Parse("game.yaml", file.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, file.String())
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, file.String())
	}
	if a := rep.Sections[0].Results.Record; a == nil || len(a.Moves) != len(rec.Positions)-1 || a.Illegal != 0 {
		t.Errorf("analysis %+v of\n%s", a, file.String())
	}
	// Its start when the section gives none: the rule's.
	if _, start, err := FromSection(sectionOf(t, "{test-takeaway: {most: 3}}")); err != nil || start != nil {
		t.Errorf("no position: %v %v", start, err)
	}
	if got := DefaultStart(s.Heap().Rule); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("DefaultStart = %v", got)
	}
	// A bad parameter names its key.
	r, _ := heap.Lookup("test-takeaway")
	_, err = NewHeapRule(r, heap.Params{"most": 0}, game.Normal, heap.Limits{})
	var pe *heap.ParamError
	if !errors.As(err, &pe) || pe.Key != "most" {
		t.Errorf("most 0: %v", err)
	}
	if _, err := NewHeapRule(r, nil, game.Normal, heap.Limits{}); !errors.As(err, &pe) || pe.Key != "most" || !strings.Contains(err.Error(), "missing") {
		t.Errorf("no most: %v", err)
	}
}

// TestRuleAgainstEngine: the test rule played misère and normal agrees
// with the engine on small positions, and the computer never loses a won
// game of it.
func TestRuleAgainstEngine(t *testing.T) {
	for _, pl := range []game.Play{game.Normal, game.Misere} {
		f := mustRule(t, "take-away "+pl.String(), "test-takeaway", heap.Params{"most": 3}, pl, []int{5, 6}, []int{4, 5, 3})
		t.Run(f.name, func(t *testing.T) { botGames(t, f, 4, 3) })
	}
}

// TestSplitNotation: a rule that splits heaps without a digit gets the
// notation of parts, and reads a split.
func TestSplitNotation(t *testing.T) {
	g, start, err := FromSection(sectionOf(t, "{test-halves: {position: [6, 1]}}"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Notation(), "list the heaps left after the number taken") {
		t.Errorf("help:\n%s", g.Notation())
	}
	if q, err := g.ParseMove(start, "1 0 3"); err != nil || !slices.Equal(q, []int{3, 3, 1}) {
		t.Errorf("1 0 3: %v %v", q, err)
	}
	if q, err := g.ParseMove(start, "(3,3,1)"); err != nil || !slices.Equal(q, []int{3, 3, 1}) {
		t.Errorf("(3,3,1): %v %v", q, err)
	}
	if _, err := g.ParseMove(start, "1 1"); !IsIllegal(err) || !strings.Contains(err.Error(), "taking 1 from a heap of 6 is not a move of halves") {
		t.Errorf("1 1: %v", err)
	}
	if got := g.JobGame(start); got != "{test-halves: {}}" {
		t.Errorf("JobGame = %s", got)
	}
}

// TestGrundysGame plays Grundy's game when the engine has it: a split is
// read, and a move taking tokens is refused in the rule's words.
func TestGrundysGame(t *testing.T) {
	if _, ok := heap.Lookup("grundy"); !ok {
		t.Skip("no grundy rule registered")
	}
	g, start, err := FromSection(sectionOf(t, "{grundy: {position: [7, 2]}}"))
	if err != nil {
		t.Fatal(err)
	}
	if q, err := g.ParseMove(start, "1 0 3"); err != nil || !slices.Equal(q, []int{3, 4, 2}) {
		t.Errorf("1 0 3: %v %v", q, err)
	}
	if q, err := g.ParseMove(start, "(1,6,2)"); err != nil || !slices.Equal(q, []int{1, 6, 2}) {
		t.Errorf("(1,6,2): %v %v", q, err)
	}
	if _, err := g.ParseMove(start, "1 0"); !IsIllegal(err) || !strings.Contains(err.Error(), "must split the 7 left into two heaps") {
		t.Errorf("1 0: %v", err)
	}
	for in, want := range map[string]string{"1 1": "take no token", "2 0": "not a move of", "1 0 2 5": "7"} {
		_, err := g.ParseMove(start, in)
		if in == "1 0 2 5" {
			if err != nil {
				t.Errorf("%q: %v", in, err)
			}
			continue
		}
		if !IsIllegal(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if !strings.Contains(g.Notation(), "list the heaps left") {
		t.Errorf("help:\n%s", g.Notation())
	}
	f := family{name: "grundy", g: g, start: start,
		outcome: func(p []int) (game.Outcome, error) {
			return heap.Outcome(g.(*Heaps).HeapGame(), p, game.Normal, heap.Limits{})
		}}
	botGames(t, f, 4, 5)
	var out bytes.Buffer
	rec, err := Run(context.Background(), g, start, &script{lines: []string{"1 0 1"}}, io.Discard, Options{Seed: 2})
	if err != nil || len(rec.Positions) < 2 {
		t.Fatalf("%v %v\n%s", rec, err, out.String())
	}
	var file bytes.Buffer
	if err := rec.WriteJob(&file); err != nil || !strings.Contains(file.String(), "game: {grundy: {}}") {
		t.Errorf("%v\n%s", err, file.String())
	}
}

// TestJobGame: the job file form of the built-in rules is the one
// records have always been saved in.
func TestJobGame(t *testing.T) {
	tests := []struct {
		rule   string
		params heap.Params
		play   game.Play
		start  []int
		want   string
	}{
		{"nim", nil, game.Normal, []int{1, 3, 5, 7}, "{nim: {heaps: [1, 3, 5, 7]}}"},
		{"nim", heap.Params{"max-take": 3}, game.Misere, []int{5, 6}, "{nim: {heaps: [5, 6], max-take: 3, play: misere}}"},
		{"subtraction", heap.Params{"set": []int{1, 3, 4}}, game.Normal, []int{15}, "{subtraction: {set: [1, 3, 4]}}"},
		{"subtraction", heap.Params{"all-but": []int{2}}, game.Misere, []int{6, 7}, "{subtraction: {all-but: [2], play: misere}}"},
		{"octal", heap.Params{"code": "0.77"}, game.Normal, []int{10}, `{octal: {code: "0.77"}}`},
		{"hex", heap.Params{"code": "0.f"}, game.Misere, []int{8, 5}, `{hex: {code: "0.f", play: misere}}`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			r, _ := heap.Lookup(tt.rule)
			g, err := NewHeapRule(r, tt.params, tt.play, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := g.JobGame(tt.start); got != tt.want {
				t.Errorf("JobGame = %s, want %s", got, tt.want)
			}
		})
	}
	kayles, _ := heap.ParseOctal("0.77")
	if g, _ := NewHeaps(kayles, game.Normal, heap.Limits{}); g.JobGame([]int{3}) != "" {
		t.Errorf("a game given alone has a job form: %s", g.JobGame([]int{3}))
	}
	if got, _ := flowValue(heap.Map, map[string]any{"b": []int{1, 2}, "a": "x", "c": true, "d": 4}); got != `{"a": "x", "b": [1, 2], "c": true, "d": 4}` {
		t.Errorf("a mapping: %s", got)
	}
}

// TestHugeHeaps: Nim on a heap of 2^31 − 1 is read, drawn from and
// answered without listing its moves; the largest heap is the engine's.
func TestHugeHeaps(t *testing.T) {
	g, err := newNim(0, game.Normal)
	if err != nil {
		t.Fatal(err)
	}
	p := []int{heap.MaxHeap, 5}
	if err := g.Check(p); err != nil {
		t.Fatal(err)
	}
	if err := g.Check([]int{heap.MaxHeap + 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprint(heap.MaxHeap)) {
		t.Errorf("a heap past heap.MaxHeap: %v", err)
	}
	if q, err := g.ParseMove(p, "1 1000000000"); err != nil || q[0] != heap.MaxHeap-1_000_000_000 {
		t.Errorf("a take from the huge heap: %v %v", q, err)
	}
	if ok, err := g.HasMove(p); !ok || err != nil {
		t.Errorf("HasMove = %v %v", ok, err)
	}
	rng := rand2(1)
	for range 100 {
		q, err := g.randomMove(p, rng)
		if err != nil || len(q) != 2 || (q[0] == p[0]) == (q[1] == p[1]) {
			t.Fatalf("random move %v %v", q, err)
		}
	}
	if w, err := g.WinningMoves(p); err != nil || len(w) != 1 {
		t.Errorf("winning moves %v %v", w, err)
	}
	// A lost position: the computer takes one token (seed 000).
	lost := []int{heap.MaxHeap, heap.MaxHeap}
	if q, err := NewOpponent(g, Perfect, 1).Move(lost); err != nil || q[0]+q[1] != 2*heap.MaxHeap-1 {
		t.Errorf("from %v: %v %v", lost, q, err)
	}
	// Bounded Nim: three moves a heap, however large.
	b, _ := newNim(3, game.Normal)
	seen := map[string]bool{}
	for range 200 {
		q, err := b.randomMove(p, rng)
		if err != nil {
			t.Fatal(err)
		}
		seen[formatPos(q)] = true
	}
	if len(seen) != 6 {
		t.Errorf("bounded Nim's random moves from %v: %v", p, seen)
	}
	if q, err := NewOpponent(b, Perfect, 1).Move([]int{heap.MaxHeap - 3, 4}); err != nil || q[0]+q[1] >= heap.MaxHeap+1 {
		t.Errorf("bounded Nim from a lost position: %v %v", q, err)
	}
}

// TestMoveShape: what play learns of each rule's moves.
func TestMoveShape(t *testing.T) {
	tests := []struct {
		rule             string
		params           heap.Params
		splits, takeAway bool
		takes            int // how many amounts up to scanTakes
	}{
		{"nim", nil, false, true, scanTakes},
		{"nim", heap.Params{"max-take": 3}, false, true, 3},
		{"subtraction", heap.Params{"set": []int{1, 3, 4}}, false, true, 3},
		{"subtraction", heap.Params{"all-but": []int{2}}, false, true, scanTakes - 1},
		{"octal", heap.Params{"code": "0.77"}, true, false, 0},
		{"octal", heap.Params{"code": "0.33"}, true, false, 0}, // a Splitter, as the notation has always said
		{"test-takeaway", heap.Params{"most": 2}, false, false, 0},
		{"test-halves", nil, true, false, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.rule, tt.params), func(t *testing.T) {
			s := ruleGame(t, tt.rule, tt.params).shape()
			if s.splits != tt.splits || s.takeAway != tt.takeAway || len(s.takes) != tt.takes {
				t.Errorf("splits %v, take-away %v, %d amounts", s.splits, s.takeAway, len(s.takes))
			}
		})
	}
	// Random moves of take-away rules reach every move.
	rng := rand2(4)
	for _, g := range []*Heaps{ruleGame(t, "subtraction", heap.Params{"set": []int{1, 3, 4}}), ruleGame(t, "subtraction", heap.Params{"all-but": []int{2}})} {
		p := []int{5, 0, 7}
		ms, _ := g.Moves(p)
		seen := map[string]bool{}
		for range 2000 {
			q, err := g.randomMove(p, rng)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := findMove(ms, q); !ok {
				t.Fatalf("%v: %v is not a move", g, q)
			}
			seen[formatPos(q)] = true
		}
		if len(seen) != len(ms) {
			t.Errorf("%v: random moves reached %d of %d", g, len(seen), len(ms))
		}
		if ok, _ := g.HasMove([]int{0, 0}); ok {
			t.Errorf("%v: a move from (0,0)", g)
		}
	}
}

func TestParseParam(t *testing.T) {
	tests := []struct {
		q    heap.Param
		in   string
		want any
		err  string
	}{
		{heap.Param{Key: "max-take", Kind: heap.Int, Example: "3"}, " 3", 3, ""},
		{heap.Param{Key: "max-take", Kind: heap.Int, Example: "3"}, "x", nil, `"x" is not a whole number; write e.g. 3`},
		{heap.Param{Key: "set", Kind: heap.Ints, Example: "[1, 3, 4]"}, "1,3 4", []int{1, 3, 4}, ""},
		{heap.Param{Key: "set", Kind: heap.Ints, Example: "[1, 3, 4]"}, "[2]", []int{2}, ""},
		{heap.Param{Key: "set", Kind: heap.Ints, Example: "[1, 3, 4]"}, "1,x", nil, `"x" is not a whole number ≥ 0; write e.g. 1,3,4`},
		{heap.Param{Key: "code", Kind: heap.String, Example: `"0.77"`}, "0.07", "0.07", ""},
		{heap.Param{Key: "code", Kind: heap.String, Example: `"0.77"`}, " ", nil, "write a value, e.g. 0.77"},
		{heap.Param{Key: "file", Kind: heap.File, Example: `"rule.star"`}, "a/b.star", "a/b.star", ""},
		{heap.Param{Key: "params", Kind: heap.Map, Example: "{k: 2}"}, "k: 2, s: [1, 2], w: x, b: true", map[string]any{"k": 2, "s": []int{1, 2}, "w": "x", "b": true}, ""},
		{heap.Param{Key: "params", Kind: heap.Map, Example: "{k: 2}"}, "{k: {x: 1}}", nil, "k: want a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.q.Key+" "+tt.in, func(t *testing.T) {
			got, err := ParseParam(tt.q, tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestFamilyMessages: the families a message offers are the registered
// rules, in their order, then the other games.
func TestFamilyMessages(t *testing.T) {
	j, err := job.Parse("n.yaml", []byte("title: T\nsections:\n  - title: Values\n    nimbers: {op: sum, size: 4}\n    show: [table]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = FindSection(j, "")
	want := "nim, subtraction, octal, hex, "
	if err == nil || !strings.Contains(err.Error(), "(nim, subtraction, octal, hex, ") || !strings.Contains(err.Error(), "test-takeaway, test-halves, wythoff, coins or product)") {
		t.Errorf("FindSection: %v, want the families from %q", err, want)
	}
	if _, _, err := FromSection(j.Sections[0]); err == nil || !strings.Contains(err.Error(), "nimbers games cannot be played yet; play nim, subtraction, octal, hex, ") {
		t.Errorf("FromSection: %v", err)
	}
	if Playable("nimbers") || !Playable("wythoff") || !Playable("octal") {
		t.Error("Playable")
	}
}
