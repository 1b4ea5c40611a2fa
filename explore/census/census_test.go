package census

import (
	"fmt"
	"os"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

func mustTable(t testing.TB) *Table {
	t.Helper()
	tb, err := Published()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// shortCodes lists every code 0.d1d2d3 and 4.d1d2d3 with a move.
func shortCodes(t testing.TB) []*heap.Octal {
	t.Helper()
	var out []*heap.Octal
	for d0 := 0; d0 <= 4; d0 += 4 {
		for x := 0; x < 512; x++ {
			if d0 == 0 && x == 0 {
				continue
			}
			g, err := heap.ParseOctal(fmt.Sprintf("%d.%03o", d0, x))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, g)
		}
	}
	return out
}

// TestEveryStandardFormPublished: the data covers every class of the
// lookup tables, and lists standard forms only.
func TestEveryStandardFormPublished(t *testing.T) {
	tb := mustTable(t)
	forms := map[string]bool{}
	for _, g := range shortCodes(t) {
		sf, ok := g.Standard()
		if !ok {
			t.Fatalf("%s: no standard form", g.Code())
		}
		forms[sf.Code] = true
		pub := tb.Game(sf.Code)
		if pub == nil {
			t.Errorf("%s: standard form %s has no published entry", g.Code(), sf.Code)
			continue
		}
		// Solved from 1000 values by the lookup tables' rule: the games
		// whose values are printed (trivial ones), and none left unsolved.
		if sf.Solved != (pub.Values != "") && (pub.Values != "" || pub.Status == StatusUnsolved) {
			t.Errorf("%s: solved from 1000 values %v, published %s", sf.Code, sf.Solved, pub.Status)
		}
	}
	for _, g := range tb.Games {
		if !forms[g.Code] {
			t.Errorf("published %s is the standard form of no code", g.Code)
		}
	}
	if len(forms) != len(tb.Games) {
		t.Errorf("%d standard forms, %d published games", len(forms), len(tb.Games))
	}
}

// TestPublishedValues computes every game whose values are published and
// proves its period: nimbook agrees with every printed value.
func TestPublishedValues(t *testing.T) {
	for _, pub := range mustTable(t).Games {
		if pub.Values == "" {
			continue
		}
		t.Run(pub.Code, func(t *testing.T) {
			g, err := heap.ParseOctal(pub.Code)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := g.Values(1100, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			sf, _ := g.Standard()
			n0, value := expect(&pub, sf)
			for n, v := range vs {
				if w, _ := value(n); w != v {
					t.Fatalf("g(%d) = %d, published %d (from heap %d)", n, v, w, sf.Reduced)
				}
			}
			c := heap.Period(g, vs)
			if !c.Proven || c.Preperiod != n0 || c.Period != pub.Period {
				t.Errorf("period %+v, published preperiod %d period %d from heap %d", c, pub.Preperiod, pub.Period, sf.Reduced)
			}
		})
	}
}

// TestCensusSmall is the census of every code of at most three digits
// on heaps up to 1100: no disagreement, and the counts of each verdict.
func TestCensusSmall(t *testing.T) {
	const upto = 1100
	counts := map[string]int{}
	for _, g := range shortCodes(t) {
		vs, err := g.Values(upto, heap.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		c := heap.Period(g, vs)
		p := &job.Period{Proven: c.Proven, Preperiod: c.Preperiod, Period: c.Period, CheckedTo: c.CheckedTo}
		row, err := Compare(g.Code(), upto, p)
		if err != nil {
			t.Fatal(err)
		}
		counts[row.Verdict]++
		if row.Verdict == Disagree {
			t.Errorf("%s (%s shift %d): proven %+v, published %+v", g.Code(), row.Standard, row.Shift, c, row.Published)
		}
	}
	t.Logf("verdicts: %v", counts)
	if counts[New] != 0 || counts[Unlisted] != 0 {
		t.Errorf("verdicts %v: want no new and no unlisted code", counts)
	}
}

func TestCompare(t *testing.T) {
	proven := func(n0, p, to int) *job.Period {
		return &job.Period{Proven: true, Preperiod: n0, Period: p, CheckedTo: to}
	}
	for _, c := range []struct {
		name, code string
		upto       int
		p          *job.Period
		verdict    string
		first      *int
	}{
		{"Kayles", "0.77", 1000, proven(71, 12, 167), Agree, nil},
		{"Kayles, another period", "0.77", 1000, proven(70, 12, 167), Disagree, nil},
		{"Kayles not proven", "0.77", 100, &job.Period{CheckedTo: 100}, Beyond, nil},
		{"Kayles not proven from enough values", "0.77", 1000, &job.Period{CheckedTo: 1000}, Disagree, nil},
		{"Officers", "0.6", 1000, &job.Period{CheckedTo: 1000}, Agree, nil},
		{"Officers proven", "0.6", 1000, proven(10, 10, 1000), New, nil},
		{"0.16 to 2^17", "0.16", 131071, &job.Period{CheckedTo: 131071}, Beyond, nil},
		{"four digits", "0.1234", 100, &job.Period{CheckedTo: 100}, Unlisted, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			row, err := Compare(c.code, c.upto, c.p)
			if err != nil {
				t.Fatal(err)
			}
			if row.Verdict != c.verdict {
				t.Errorf("verdict %s, want %s (%+v)", row.Verdict, c.verdict, row)
			}
			if (row.FirstDifference == nil) != (c.first == nil) || c.first != nil && *row.FirstDifference != *c.first {
				t.Errorf("first difference %v, want %v", row.FirstDifference, c.first)
			}
		})
	}
}

// TestShiftedPreperiod: a code whose values are its standard form's moved
// is expected with the preperiod moved, the zeros before included.
func TestShiftedPreperiod(t *testing.T) {
	for _, c := range []struct {
		code string
		upto int
	}{{"0.07", 1000}, {"0.01", 100}, {"0.001", 100}, {"0.21", 100}, {"0.041", 1000}} {
		t.Run(c.code, func(t *testing.T) {
			g, err := heap.ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := g.Values(c.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			cert := heap.Period(g, vs)
			row, err := Compare(c.code, c.upto, &job.Period{Proven: cert.Proven, Preperiod: cert.Preperiod, Period: cert.Period, CheckedTo: cert.CheckedTo})
			if err != nil {
				t.Fatal(err)
			}
			if row.Verdict != Agree || row.Published.Preperiod != cert.Preperiod {
				t.Errorf("%s ~ %s shift %d: expected preperiod %d, proven %+v", c.code, row.Standard, row.Shift, row.Published.Preperiod, cert)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	base := "sources: {s: {who: a, title: b, where: c}}\ngames:\n"
	for _, c := range []struct{ name, games string }{
		{"not canonical", `  - {code: ".77", status: solved, preperiod: 71, period: 12, sources: [s]}`},
		{"twice", "  - {code: \"0.77\", status: unsolved, sources: [s]}\n  - {code: \"0.77\", status: unsolved, sources: [s]}"},
		{"status", `  - {code: "0.77", status: maybe, sources: [s]}`},
		{"source", `  - {code: "0.77", status: unsolved, sources: [t]}`},
		{"no source", `  - {code: "0.77", status: unsolved}`},
		{"values", `  - {code: "0.77", status: solved, preperiod: 0, period: 2, values: "012", sources: [s]}`},
		{"value digit", `  - {code: "0.77", status: solved, preperiod: 0, period: 2, values: "0?", sources: [s]}`},
		{"period", `  - {code: "0.77", status: solved, preperiod: 0, period: 0, sources: [s]}`},
		{"code", `  - {code: "0.9", status: unsolved, sources: [s]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Parse([]byte(base + c.games + "\n")); err == nil {
				t.Error("no error")
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("published.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("games: [{code: \"0.77\", status: unsolved, sources: [x]}]\nsources: {x: {who: a}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := Parse(b)
		if err != nil {
			return
		}
		for i := range tb.Games {
			g := &tb.Games[i]
			if tb.Game(g.Code) != g {
				t.Fatalf("%s not found", g.Code)
			}
			for n := 0; n < 3*len(g.Values); n++ {
				if _, ok := g.Value(n); !ok {
					t.Fatalf("%s: no value %d", g.Code, n)
				}
			}
		}
	})
}

// A published sequence with a wrong value disagrees from that heap on.
func TestFirstDifference(t *testing.T) {
	pub := *mustTable(t).Game("0.77")
	b := []byte(pub.Values)
	b[40] = '0' // Kayles has g(40) = 1
	pub.Values = string(b)
	g, err := heap.ParseOctal("0.77")
	if err != nil {
		t.Fatal(err)
	}
	sf, _ := g.Standard()
	_, value := expect(&pub, sf)
	n, err := firstDifference(g, value, 300)
	if err != nil {
		t.Fatal(err)
	}
	if n != 40 {
		t.Errorf("first difference at %d, want 40", n)
	}
}
