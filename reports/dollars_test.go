package reports

import (
	"strings"
	"testing"
)

// TestMathDollars: a Jupyter notebook's $…$ formulas read as the reports'
// prose, with the dollars gone; money, code and escaped dollars stay.
func TestMathDollars(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"subscript", "The table of $f_r(n)$.", "The table of f_r(n)."},
		{"symbols", `pairs $(\lfloor n\varphi \rfloor, \lfloor n\varphi^2 \rfloor)$`, "pairs (⌊nφ⌋, ⌊nφ^2⌋)"},
		{"short names", `$a \le b \ne c$`, "a ≤ b ≠ c"},
		{"unknown command", `$\frac{a}{b}$`, `\frac{a}{b}`},
		{"money", "from $5 to $10", "from $5 to $10"},
		{"space inside", "a $ b $ c", "a $ b $ c"},
		{"code", "`$x$` and $y$", "`$x$` and y"},
		{"escaped", `\$x$ and $y\$`, `\$x$ and $y\$`},
		{"two", "$a$ and $b_1$", "a and b_1"},
		{"digit after", "$a$1 is not closed", "$a$1 is not closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mathDollars(tc.in); got != tc.want {
				t.Errorf("mathDollars(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestMarkdownMaths: the Markdown of a Jupyter result writes its
// formulas in dollars, as the LaTeX form sets them, so that nbconvert's
// PDF shows n₀′ ≤ n (Latin Modern has no glyph for ₀, ′ or ≤ in text).
func TestMarkdownMaths(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"period proof", "for n₀′ ≤ n < 2n₀′ + p + t, with n₀′ = max(n₀, 1)",
			`for $n_{0}' \leq  n < 2n_{0}' + p + t$, with $n_{0}' = \max (n_{0}, 1)$`},
		{"bold kept", "**Period** from n = 71", "**Period** from $n = 71$"},
		{"no space inside", "the nim-sum ⊕ of", `the nim-sum $\oplus$ of`},
		{"code kept", "`n₀` and n₀", "`n₀` and $n_{0}$"},
		{"table", "| a | b |\n| - | - |\n| n₀ | 1 |\n", "| $a$ | $b$ |\n| - | - |\n| $n_{0}$ | 1 |\n"},
		{"plain", "Game: Nim; normal play.", "Game: Nim; normal play."},
		{"symbol in brackets", "from heads (●) to tails (○);", `from heads ($\bullet$) to tails ($\circ$);`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := markdownMaths(tc.in)
			if got != tc.want {
				t.Errorf("markdownMaths(%q)\n = %q\nwant %q", tc.in, got, tc.want)
			}
			if strings.ContainsAny(got, "₀′≤⊕") && !strings.Contains(got, "`") {
				t.Errorf("Unicode mathematics left in %q", got)
			}
		})
	}
}
