package heap

import "testing"

// The capabilities each rule of the package has.
var (
	_ Explainer = (*Nim)(nil)
	_ Explainer = (*Subtraction)(nil)
	_ Explainer = (*Octal)(nil)
	_ Explainer = (*Hex)(nil)
	_ Explainer = (*GrundysGame)(nil)

	_ Splitter = (*Octal)(nil)
	_ Splitter = (*Hex)(nil)
	_ Splitter = (*GrundysGame)(nil)

	_ SingleSplitter = (*Octal)(nil)
	_ SingleSplitter = (*Hex)(nil)
	_ SingleSplitter = (*GrundysGame)(nil)

	_ PPositioner    = (*Nim)(nil)
	_ PositionSolver = (*Nim)(nil)
)

// TestExplain: what play tells a player of each rule, word for word as
// play wrote it before the rules said it themselves (explore/play:
// ruleText, rule and codeRule; its messages_test checks the forbidden
// moves of Nim, bounded Nim, {1,3,4}, all-but {2}, Kayles and 0.07).
func TestExplain(t *testing.T) {
	tests := []struct {
		g         Game
		explain   string
		forbidden map[int]string // k → Forbidden(k); "" where k may be a move
	}{
		{must(NewNim(0)), "take any number of tokens (at least one) from one heap.",
			map[int]string{0: "take at least one token", 1: "", 1000: ""}},
		{must(NewNim(3)), "take 1 to 3 tokens from one heap.",
			map[int]string{0: "take at least one token", 3: "", 4: "you may take at most 3 tokens at a time"}},
		{must(NewNim(1)), "take 1 to 1 tokens from one heap.",
			map[int]string{1: "", 2: "you may take at most 1 token at a time"}},
		{must(NewSubtraction([]int{1, 3, 4})), "take 1, 3 or 4 tokens from one heap.",
			map[int]string{0: "take at least one token", 2: "you may take 1, 3 or 4 tokens, not 2", 4: "", 5: "you may take 1, 3 or 4 tokens, not 5"}},
		{must(NewSubtraction([]int{2})), "take 2 tokens from one heap.",
			map[int]string{1: "you may take 2 tokens, not 1", 2: ""}},
		{must(NewAllBut([]int{2})), "take any number of tokens from one heap, but not 2.",
			map[int]string{0: "take at least one token", 2: "you may take any number of tokens but 2", 3: ""}},
		{must(NewAllBut([]int{1, 2})), "take any number of tokens from one heap, but not 1 or 2.",
			map[int]string{1: "you may take any number of tokens but 1 or 2", 7: ""}},
		{mustOctal(t, "0.77"), "the code octal 0.77: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{0: "take at least one token", 1: "", 2: "", 3: "in octal 0.77 you may take 1 or 2 tokens, not 3"}},
		{mustOctal(t, "0.07"), "the code octal 0.07: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{1: "in octal 0.07 you may take 2 tokens, not 1", 2: ""}},
		{mustOctal(t, "4.07"), "the code octal 4.07: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{0: "", 1: "in octal 4.07 you may take 2 tokens, or split a heap in two without taking any (type 0 as the number taken), not 1"}},
		{mustOctal(t, "0.137"), "the code octal 0.137: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{0: "take at least one token", 4: "in octal 0.137 you may take 1, 2 or 3 tokens, not 4"}},
		{mustHex(t, "0.f"), "the code hex 0.f: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{1: "", 2: "in hex 0.f you may take 1 tokens, not 2"}},
		{mustHex(t, "8.4"), "the code hex 8.4: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).",
			map[int]string{0: "", 2: "in hex 8.4 you may take 1 tokens, or split a heap in two without taking any (type 0 as the number taken), not 2"}},
		{NewGrundysGame(), "split one heap into two unequal heaps (take no token).",
			map[int]string{0: "", 1: "in Grundy's game you take no token: split a heap into two unequal heaps", 5: "in Grundy's game you take no token: split a heap into two unequal heaps"}},
	}
	for _, tc := range tests {
		t.Run(tc.g.String(), func(t *testing.T) {
			e := tc.g.(Explainer)
			if got := e.Explain(); got != tc.explain {
				t.Errorf("Explain() = %q, want %q", got, tc.explain)
			}
			for k, want := range tc.forbidden {
				if got := e.Forbidden(k); got != want {
					t.Errorf("Forbidden(%d) = %q, want %q", k, got, want)
				}
			}
		})
	}
}

// TestSplitter: the rules whose moves split a heap say how by a digit;
// Nim and subtraction games do not split.
func TestSplitter(t *testing.T) {
	for _, g := range []Game{must(NewNim(0)), must(NewSubtraction([]int{1, 2}))} {
		if _, ok := g.(Splitter); ok {
			t.Errorf("%v is a Splitter", g)
		}
	}
	tests := []struct {
		g      Splitter
		digits []int // Digit(0), Digit(1), …
	}{
		{mustOctal(t, "0.77"), []int{0, 7, 7, 0}},
		{mustOctal(t, "4.07"), []int{4, 0, 7, 0}},
		{mustHex(t, "8.4"), []int{8, 4, 0}},
		{NewGrundysGame(), []int{4, 0, 0}},
	}
	for _, tc := range tests {
		for k, want := range tc.digits {
			if got := tc.g.Digit(k); got != want {
				t.Errorf("%v: Digit(%d) = %d, want %d", tc.g, k, got, want)
			}
		}
	}
	for _, tc := range []struct {
		g    SingleSplitter
		t    int
		isOK bool
	}{{mustOctal(t, "0.051"), 2, true}, {mustOctal(t, "0.376"), 0, false}, {NewGrundysGame(), 0, true}} {
		if d, ok := tc.g.SplitDigit(); d != tc.t || ok != tc.isOK {
			t.Errorf("%v: SplitDigit() = %d, %v; want %d, %v", tc.g, d, ok, tc.t, tc.isOK)
		}
	}
}
