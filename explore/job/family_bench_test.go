package job

import (
	"fmt"
	"testing"
)

// BenchmarkNodeKayles solves Node Kayles on 3 × 7 (examples/games.star)
// with its components and canonical forms (the splitting solver) and by
// its moves alone (the generic solver on whole positions).
func BenchmarkNodeKayles(b *testing.B) {
	for _, split := range []bool{true, false} {
		b.Run(fmt.Sprintf("split=%v", split), func(b *testing.B) {
			text := fmt.Sprintf(`
sections:
  - game: {starlark: {file: %s, name: node_kayles, params: {rows: 3, cols: 7, split: %v}}}
    show: [value]
`, gamesFileB(b), split)
			for b.Loop() {
				rep, err := runFamilyJob(b, b.TempDir(), text, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if v := *rep.Sections[0].Results.Value; v != 2 { // A316632: a(7) = 2
					b.Fatalf("value %d", v)
				}
			}
		})
	}
}
