package survey

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// takeaway is a test-only heap rule: take 1 to k tokens from one heap
// (g(n) = n mod (k + 1)). Its opts mapping is passed on as a Starlark
// rule's params are, and its generator evens: K makes every k in 2, 4, …,
// 2K. Surveys know it only by its registration.
type takeaway struct{ k int }

func (g takeaway) Options(n int) [][]int {
	var out [][]int
	for t := 1; t <= g.k && t <= n; t++ {
		if n > t {
			out = append(out, []int{n - t})
		} else {
			out = append(out, []int{})
		}
	}
	return out
}

func (g takeaway) Values(upto int, lim heap.Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	for n := range vs {
		vs[n] = uint64(n % (g.k + 1))
	}
	return vs, nil
}

func (g takeaway) String() string { return fmt.Sprintf("take-away 1..%d", g.k) }

func init() {
	heap.Register(&heap.Rule{
		Name:  "test-takeaway",
		Order: 1000,
		Text:  map[string]string{"en": "take 1 to k tokens from one heap"},
		Params: []heap.Param{
			{Key: "k", Kind: heap.Int, Min: 1, Max: 1000, What: "the most one may take", Example: "3", Default: 1},
			{Key: "opts", Kind: heap.Map, Example: "{a: 1}"},
			heap.UptoParam(30),
		},
		New: func(p heap.Params) (heap.Game, error) { return takeaway{k: p.Int("k")}, nil },
		Generators: []heap.Generator{{
			Key: "evens", Param: "k", Example: "evens: 3",
			Check: func(has func(string) bool) error {
				if has("k") {
					return errors.New("give either k or evens, not both")
				}
				return nil
			},
			Count: func(a heap.GeneratorArgs) (int64, string, error) {
				_, hi, _, _, err := a.Span("evens", "the number of even k", 1, 1_000_000)
				return hi, "the even k", err
			},
			Make: func(a heap.GeneratorArgs) ([]any, error) {
				_, hi, _, _, err := a.Span("evens", "the number of even k", 1, 1_000_000)
				var out []any
				for k := int64(1); k <= hi; k++ {
					out = append(out, int(2*k))
				}
				return out, err
			},
		}},
	})
}

// TestRegisteredRule checks that a rule registered outside the survey
// package is surveyed over a range of one of its Int parameters, planned
// by the job's estimate and computed, with no survey code naming it.
func TestRegisteredRule(t *testing.T) {
	s := mustParse(t, "survey: {test-takeaway: {k: \"1..5\", upto: 30}}\nshow: [values, period]\n")
	if len(s.Variants) != 5 || fmt.Sprint(s.Params, s.Varying) != "[k upto] [k]" {
		t.Fatalf("%d variants, params %v varying %v", len(s.Variants), s.Params, s.Varying)
	}
	if l := s.Label(s.Variants[2]); l != "test-takeaway k=3" {
		t.Errorf("label %q", l)
	}
	g, _ := Canonical(s.Variants[4].Game())
	if string(g) != `{"test-takeaway":{"k":5,"upto":30}}` {
		t.Errorf("game %s", g)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	if sum := runAll(t, s, path, Shard{}, 2); sum.Done != 5 {
		t.Fatalf("summary %+v", sum)
	}
	st, err := OpenRead(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, _ := st.Rows()
	f, err := NewFindings(NewReport(s, rows, ""), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range f.Results {
		k := i + 1
		if res == nil || len(res.Values) != 31 || res.Values[k] != uint64(k) || res.Values[k+1] != 0 {
			t.Errorf("k=%d: %+v", k, res)
		}
	}

	s = mustParse(t, "survey: {test-takeaway: {evens: 3, upto: [10, 20]}}\nshow: [values]\n")
	var got []string
	for _, v := range s.Variants {
		got = append(got, fmt.Sprintf("%d/%d", v.Section.Heap().Params.Int("k"), v.Section.Heap().Upto()))
	}
	if fmt.Sprint(got) != "[2/10 2/20 4/10 4/20 6/10 6/20]" || fmt.Sprint(s.Params) != "[k upto]" {
		t.Errorf("generated %v, params %v", got, s.Params)
	}
}

// TestMapParam checks that the values of a Map parameter may each be a
// list or a range, every combination a variant, the first key varying
// slowest, and that the combinations multiply with the other parameters.
func TestMapParam(t *testing.T) {
	tests := []struct {
		name, survey string
		want         []string // the opts of each variant, then its k
		varying      string
	}{
		{"one range", `{opts: {a: "1..3"}}`, []string{"map[a:1]/1", "map[a:2]/1", "map[a:3]/1"}, "[opts.a]"},
		{"list × range", `{k: [1, 2], opts: {a: "1..3"}}`, []string{"map[a:1]/1", "map[a:2]/1", "map[a:3]/1", "map[a:1]/2", "map[a:2]/2", "map[a:3]/2"}, "[k opts.a]"},
		{"two keys", `{opts: {a: [x, y], b: "7..8"}}`, []string{"map[a:x b:7]/1", "map[a:x b:8]/1", "map[a:y b:7]/1", "map[a:y b:8]/1"}, "[opts.a opts.b]"},
		{"lists of lists", `{opts: {a: [[1, 2], [3]], b: true}}`, []string{"map[a:[1 2] b:true]/1", "map[a:[3] b:true]/1"}, "[opts.a]"},
		{"single values", `{opts: {a: 1, b: word}}`, []string{"map[a:1 b:word]/1"}, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, "survey: {test-takeaway: "+tt.survey+"}\nshow: [values]\n")
			var got []string
			for _, v := range s.Variants {
				h := v.Section.Heap()
				got = append(got, fmt.Sprintf("%v/%d", h.Params.Map("opts"), h.Params.Int("k")))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("variants %v, want %v", got, tt.want)
			}
			if fmt.Sprint(s.Varying) != tt.varying {
				t.Errorf("varying %v, want %s", s.Varying, tt.varying)
			}
		})
	}
	s := mustParse(t, "survey: {test-takeaway: {opts: {a: \"1..2\"}}}\nshow: [values]\n")
	if l := s.Label(s.Variants[1]); l != `test-takeaway opts.a=2` {
		t.Errorf("label %q", l)
	}
	if g, _ := json.Marshal(s.Variants[1].Game()); string(g) != `{"test-takeaway":{"opts":{"a":2},"upto":30}}` && !strings.Contains(string(g), `"opts":{"a":2}`) {
		t.Errorf("game %s, want opts nested", g)
	}
}

// TestLimitsOfInt64 checks issue 21: ranges across or near the int64
// limits are refused at once, naming the limit, instead of listing values
// for ever.
func TestLimitsOfInt64(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      []string
	}{
		{"near the top", "survey:\n  nim:\n    max-take: \"9223372036854775800..9223372036854775807\"\nshow: [period]\n", 3,
			[]string{"survey.nim.max-take", "9223372036854775800 is out of range"}},
		{"from 0 to the top", "survey:\n  nim:\n    max-take: \"0..9223372036854775807\"\nshow: [period]\n", 3,
			[]string{"survey.nim.max-take", "the 9223372036854775808 values", "more than the limit of 100000", "--max-variants"}},
		{"every int64", "survey:\n  nim:\n    upto: \"-9223372036854775808..9223372036854775807\"\nshow: [period]\n", 3,
			[]string{"survey.nim.upto", "the 18446744073709551616 values", "more than the limit of 100000"}},
		{"past the top", "survey:\n  nim:\n    upto: \"9223372036854775807..9223372036854775808\"\nshow: [period]\n", 3,
			[]string{"survey.nim.upto", "a number too large"}},
		{"from the bottom", "survey:\n  nim:\n    upto: \"-9223372036854775808..-9223372036854775801\"\nshow: [period]\n", 3,
			[]string{"survey.nim.upto", "-9223372036854775808 is out of range"}},
		{"a map's range", "survey:\n  test-takeaway:\n    opts:\n      a: \"0..9223372036854775807\"\nshow: [values]\n", 4,
			[]string{"survey.test-takeaway.opts.a", "the 9223372036854775808 values"}},
		{"a map's combinations", "limits: {variants: 10}\nsurvey:\n  test-takeaway:\n    opts: {a: \"1..4\", b: \"1..3\"}\nshow: [values]\n", 3,
			[]string{"survey: 4 opts.a × 3 opts.b make more than 10 variants"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Parse("s.yaml", []byte(tt.src), Options{})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute): // a hang guard only
				t.Fatal("Parse still running after a minute")
			}
			var je *job.Error
			if !errors.As(err, &je) {
				t.Fatalf("%v is not a located error", err)
			}
			if je.Line != tt.line {
				t.Errorf("line %d, want %d: %v", je.Line, tt.line, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
	// A limit past the hard one does not let a product of ranges overflow.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard only
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Parse("s.yaml", []byte("survey:\n  nim: {max-take: \"1..10000\", upto: \"1..10000\"}\nshow: [period]\n"), Options{MaxVariants: 1 << 62})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "10000 max-take × 10000 upto make more than 50000000 variants") {
			t.Errorf("huge --max-variants: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Parse still running after a minute")
	}
}
