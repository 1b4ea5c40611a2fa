package heap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// readLookup reads testdata/lookup.txt: code → standard form.
func readLookup(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/lookup.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var code, std string
		if _, err := fmt.Sscan(line, &code, &std); err != nil {
			t.Fatalf("lookup.txt: %q: %v", line, err)
		}
		out[code] = std
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// allShortCodes lists every octal code 0.d1d2d3 and 4.d1d2d3 but the one
// with no move: the codes the lookup tables cover.
func allShortCodes(t *testing.T) []*Octal {
	t.Helper()
	var out []*Octal
	for d0 := 0; d0 <= 4; d0 += 4 {
		for x := 0; x < 512; x++ {
			if d0 == 0 && x == 0 {
				continue
			}
			g, err := ParseOctal(fmt.Sprintf("%d.%03o", d0, x))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, g)
		}
	}
	return out
}

// TestStandardMatchesLookupTables checks nimbook's standard forms against
// the published lookup tables, code by code.
func TestStandardMatchesLookupTables(t *testing.T) {
	want := readLookup(t)
	codes := allShortCodes(t)
	if len(want) != len(codes) {
		t.Fatalf("lookup.txt has %d codes, want %d", len(want), len(codes))
	}
	for _, g := range codes {
		sf, ok := g.Standard()
		if !ok {
			t.Errorf("%s: no standard form", g.Code())
			continue
		}
		if sf.Code != want[g.Code()] {
			t.Errorf("%s: standard form %s (shift %d), the tables say %s", g.Code(), sf.Code, sf.Shift, want[g.Code()])
		}
	}
}

// TestStandardValues checks every standard form by its values: those of
// the code are those of its standard form moved Shift heaps, zeros before.
func TestStandardValues(t *testing.T) {
	const upto = 400
	for _, g := range allShortCodes(t) {
		sf, ok := g.Standard()
		if !ok {
			t.Fatalf("%s: no standard form", g.Code())
		}
		s, err := ParseOctal(sf.Code)
		if err != nil {
			t.Fatal(err)
		}
		a, err := g.Values(upto, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Values(upto, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if sf.Shift < 0 {
			a, b = b, a
		}
		d := max(sf.Shift, -sf.Shift)
		for n := 0; n <= upto; n++ {
			want := uint64(0)
			if n >= d {
				want = b[n-d]
			}
			if a[n] != want {
				t.Errorf("%s ~ %s shift %d: differ at heap %d", g.Code(), sf.Code, sf.Shift, n)
				break
			}
		}
	}
}

func TestStandardNone(t *testing.T) {
	for _, c := range []string{"0.0", "0.1234", "4.0007"} {
		t.Run(c, func(t *testing.T) {
			g, err := ParseOctal(c)
			if err != nil {
				t.Fatal(err)
			}
			if sf, ok := g.Standard(); ok {
				t.Errorf("%s: standard form %+v, want none", c, sf)
			}
		})
	}
}

// TestStandardCorrections checks the corrections T. Czajka found in the
// published tables (github.com/tczajka/octal-games, README.md): Winning
// Ways' locator sends .27 to .06, it is .26; A. Flammenkamp's tables make
// .161 and .36 one game, their values differ first at heap 519.
func TestStandardCorrections(t *testing.T) {
	for _, c := range []struct{ code, std string }{
		{"0.27", "0.26"},
		{"0.161", "0.161"},
		{"0.36", "0.36"},
	} {
		t.Run(c.code, func(t *testing.T) {
			g, err := ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			if sf, _ := g.Standard(); sf.Code != c.std {
				t.Errorf("standard form of %s: %s, want %s", c.code, sf.Code, c.std)
			}
		})
	}
	t.Run("0.161 vs 0.36", func(t *testing.T) {
		a, err := mustOctal(t, "0.161").Values(600, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := mustOctal(t, "0.36").Values(600, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		first := -1
		for n := range a {
			if a[n] != b[n] {
				first = n
				break
			}
		}
		if first != 519 {
			t.Errorf("0.161 and 0.36 differ first at heap %d, want 519", first)
		}
	})
}
