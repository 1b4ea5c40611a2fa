package wythoff_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/internal/cref"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// BenchmarkTableLarge fills the n × n tables of issue 13, "go" with
// GOMAXPROCS workers (run it with -cpu 1, then -cpu 2, for the second
// core's speed-up: with a list such as -cpu 1,2 the first sample of each
// sub-benchmark runs with another list entry's GOMAXPROCS), beside C
// references in testdata/cref run as one process a table, checked to
// compute the same table: "c-tile" is the algorithm of fill.go on one
// core, "c-rowmajor" the same without tiles, "c-naive" the mex over every
// option (O(n^3), so at n = 1024 only). The C times include starting the
// process and the checksum of the table, some 60 ms at n = 8192.
func BenchmarkTableLarge(b *testing.B) {
	tile, naive := cref.Build(b, "testdata/cref/tile.c"), cref.Build(b, "testdata/cref/naive.c")
	for _, n := range []int{1024, 4096, 8192} {
		table := func(b *testing.B) *wythoff.Table {
			t, err := wythoff.NewTableOptions(n, n, wythoff.Options{MaxCells: n * n})
			if err != nil {
				b.Fatal(err)
			}
			return t
		}
		var want string // what the C references print for this table, once known
		b.Run(fmt.Sprintf("n=%d/go", n), func(b *testing.B) {
			var t *wythoff.Table
			for b.Loop() {
				t = table(b)
			}
			want = checksum(t)
		})
		side := strconv.Itoa(n)
		refs := []struct {
			name string
			prog *cref.Program
			args []string
		}{
			{"tile", tile, []string{side}},
			{"rowmajor", tile, []string{side, side, side}}, // one tile
			{"naive", naive, []string{side}},
		}
		for _, ref := range refs {
			if ref.name == "naive" && n > 1024 {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/c-%s", n, ref.name), func(b *testing.B) {
				var out []byte
				for b.Loop() {
					out = ref.prog.Run(b, ref.args...)
				}
				if want == "" { // the Go sub-benchmark did not run
					want = checksum(table(b))
				}
				if got := string(bytes.TrimSpace(out)); got != want {
					b.Fatalf("C reference %s printed %q, the Go table's checksum is %q", ref.name, got, want)
				}
			})
		}
	}
}

// checksum returns what the C references print for table t (n × n):
// "n s last", s = 31·s + g over the cells in row-major order (mod 2^64).
func checksum(t *wythoff.Table) string {
	var sum uint64
	var row []uint64
	for a := range t.Rows() {
		row = t.AppendRow(row[:0], a)
		for _, v := range row {
			sum = sum*31 + v
		}
	}
	n := t.Rows()
	return fmt.Sprintf("%d %d %d", n, sum, t.At(n-1, n-1))
}
