package job

import (
	"context"
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/record"
)

// BenchmarkProductRecord compares the analysis of a played Nim × Nim game
// on a 4×4 grid from the heads' values with record.Analyse, whose generic
// solver explores the grid's positions.
func BenchmarkProductRecord(b *testing.B) {
	nim, _ := coins.New(coins.AtMost, 2, 1)
	p, _ := coins.NewProduct(nim, nim)
	sizes := []int{4, 4}
	// Heads at (2,3), (3,4), (4,4); then a game of single-coin turns.
	played := [][][]int{
		{{2, 3}, {3, 4}, {4, 4}},
		{{2, 3}, {3, 4}},
		{{2, 3}},
		{},
	}
	m, err := p.Mover(sizes...)
	if err != nil {
		b.Fatal(err)
	}
	var masks []uint64
	for _, h := range played {
		mask, err := p.Mask(sizes, h)
		if err != nil {
			b.Fatal(err)
		}
		masks = append(masks, mask)
	}
	b.Run("values", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := productAnalysis(p, played); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("solver", func(b *testing.B) {
		for b.Loop() {
			if _, err := record.Analyse(m, masks, record.Options{Play: game.Normal}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRunSections runs a job of four independent octal sweeps of
// about 0.3 s each one after another (Jobs1) and two at once (Jobs2):
// the ratio is the speed-up of a second core on whole sections.
func BenchmarkRunSections(b *testing.B) {
	j, err := Parse("bench.yaml", []byte(`sections:
  - game: {octal: {code: "0.354", upto: 1000000}}
    show: [period, rare]
  - game: {octal: {code: "0.376", upto: 300000}}
    show: [period, rare]
  - game: {octal: {code: "0.6", upto: 120000}}
    show: [period, rare]
  - game: {octal: {code: "0.354", upto: 900000}}
    show: [period, rare]
`))
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("Jobs%d", jobs), func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), j, Options{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
