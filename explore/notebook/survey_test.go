package notebook_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/internal/stopcheck"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/notebook"
	"github.com/nimbook/nimbook/reports"
)

// cell runs code in s and returns its display, or its error.
func cell(t *testing.T, s *notebook.Session, code string) (*kernel.Display, error) {
	t.Helper()
	return s.Execute(context.Background(), code, printer{})
}

func surveySession(t *testing.T) *notebook.Session {
	t.Helper()
	s, err := notebook.New(notebook.Options{Renderer: reports.Bundler{}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Kayles (0.77) has period 12 from 71 and Dawson's Kayles (0.07) period 34
// from 53 (MATH.md); the period of 0.6 is an open problem.
const threeOctal = `s = survey(octal={"codes": ["0.07", "0.77", "0.6"], "upto": 300}, show=["period", "values"], title="Three", jobs=2)`

func TestSurveyCell(t *testing.T) {
	s := surveySession(t)
	if _, err := cell(t, s, threeOctal); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ code, want string }{
		{`(s.count, s.done, s.title)`, `(3, 3, "Three")`},
		{`[v["results"]["period"]["period"] for v in s.variants[:2]]`, `[34, 12]`},
		{`[v["results"]["period"]["preperiod"] for v in s.variants[:2]]`, `[53, 71]`},
		{`s.variants[2]["results"]["period"]["proven"]`, `False`},
		{`s.variants[1]["game"]`, `{"octal": {"code": "0.77", "upto": 300}}`},
		{`len(s.variants[0]["results"]["values"])`, `301`},
		{`type(s)`, `"survey"`},
		// A variant a row, as a table of the notebook writes itself.
		{`s.to_csv().split("\n")[0]`, `"index,code,upto,status,period,values,error"`},
		{`s.to_csv().split("\n")[2][:16]`, `"1,0.77,300,done,"`},
		{`s.to_markdown().split("\n")[1]`, `"|---:|:---|---:|:---|:---|:---|:---|"`},
	}
	for _, tc := range tests {
		d, err := cell(t, s, tc.code)
		if err != nil {
			t.Errorf("%s: %v", tc.code, err)
			continue
		}
		if got := d.Data["text/plain"]; got != tc.want {
			t.Errorf("%s = %v, want %s", tc.code, got, tc.want)
		}
	}
	// The value displays as the survey's report: the table of variants,
	// the notable ones, and the JSON form, after its figures, each shown on
	// its own (a Jupyter bundle has no HTML, and holds one image).
	var figs recorder
	d, err := s.Execute(context.Background(), "s", &figs)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := d.Data["text/markdown"].(string)
	if _, ok := d.Data["text/html"]; ok {
		t.Error("a survey's bundle holds text/html: nbconvert --to markdown would copy it raw")
	}
	// Three of the survey, and the census's values of the codes without a
	// proven period.
	if len(figs.shown) != 4 {
		t.Errorf("%d figures shown before the survey, want 4", len(figs.shown))
	}
	for _, f := range figs.shown {
		if _, ok := f.Data["image/png"]; !ok || f.Data["image/svg+xml"] == nil {
			t.Errorf("figure without its images: %v", f.Data["text/plain"])
		}
	}
	// nimbook's own pages keep the HTML, figures included.
	hs, err := notebook.New(notebook.Options{Renderer: reports.Bundler{HTML: true}})
	if err != nil {
		t.Fatal(err)
	}
	hd, err := cell(t, hs, threeOctal+"\ns")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := hd.Data["text/html"].(string)
	for _, w := range []string{"| 1   | 0.77 |        71 |     12 | ✓", "Longest period: 34, of 0.07.", "No period proven within the values computed (1): 0.6."} {
		if !strings.Contains(md, w) {
			t.Errorf("text/markdown: %q missing from\n%s", w, md)
		}
	}
	if strings.Contains(md, "Figures") {
		t.Errorf("text/markdown mentions figures it cannot hold:\n%s", md)
	}
	if !strings.Contains(html, "<img alt=") || !strings.Contains(html, "<table>") || !strings.Contains(html, "<strong>Variants</strong>") {
		t.Errorf("text/html lacks its figures, table or headings:\n%.600s", html)
	}
	j, ok := d.Data["application/json"].(map[string]any)
	if !ok || j["title"] != "Three" || len(j["variants"].([]any)) != 3 {
		t.Errorf("application/json: %v", d.Data["application/json"])
	}
}

func TestSurveyCellDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	code := `s = survey(subtraction={"within": 3, "upto": 30}, show="period", db=` + `"` + db + `"` + `)
s.done`
	for i := 0; i < 2; i++ {
		// The second session finds the variants in the database.
		d, err := cell(t, surveySession(t), code)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Data["text/plain"]; got != "7" {
			t.Errorf("run %d: %v variants done, want 7", i, got)
		}
	}
	_, err := cell(t, surveySession(t), `survey(octal={"digits": 1, "upto": 30}, show="period", db="`+db+`")`)
	if err == nil || !strings.Contains(err.Error(), "holds the results of another survey") {
		t.Errorf("another survey's database: %v", err)
	}
}

func TestSurveyCellErrors(t *testing.T) {
	tests := []struct{ code, want string }{
		{`survey(show=["period"])`, "give one family"},
		{`survey(octal={"digits": 1})`, "give the analyses"},
		{`survey({"octal": {}})`, "by name"},
		{`survey(octal={"digits": 1}, nim={"upto": 3}, show="period")`, "one family at a time"},
		{`survey(octal={"digits": 1}, show="period", colour="red")`, "unexpected keyword argument colour"},
		{`survey(octal={"digits": 1, "upto": 30}, show=["colour"])`, "survey: show"},
		{`survey(octal={"digits": 3, "upto": 30}, show="period", max_variants=10)`, "max_variants=N"},
		{`survey(octal={"digits": 1, "upto": 30}, show="period", db=3)`, "db must be the path"},
		{`survey(octal={"digits": 1, "upto": lambda n: n}, show="period")`, "a function is not a survey value"},
		{`limits(positions=1000)
survey(octal={"codes": ["0.07"], "upto": 5000}, show="period")`, "limits(positions=N)"},
	}
	for _, tc := range tests {
		_, err := cell(t, surveySession(t), tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.code, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "survey:1:") {
			t.Errorf("%s: %v names a line of a file the user never wrote", tc.code, err)
		}
	}
}

// An interrupt stops a survey: interrupted once it has spent 300 ms of
// processor time, it says so and spends little more (the processor time,
// not the clock's, which a loaded machine stretches).
func TestSurveyCellInterrupt(t *testing.T) {
	s := surveySession(t)
	r := stopcheck.InterruptBusy(300*time.Millisecond, time.Minute, func(ctx context.Context) error {
		_, err := s.Execute(ctx, `survey(octal={"digits": 3, "upto": 30000}, show="values", jobs=2)`, printer{})
		return err
	})
	switch {
	case r.Hung:
		t.Fatal("the survey did not stop")
	case r.Early:
		t.Fatalf("the survey ended before the interrupt: %v", r.Err)
	}
	if r.Err == nil || !strings.Contains(r.Err.Error(), "interrupted") {
		t.Errorf("interrupted survey: %v", r.Err)
	}
	if r.CPUAfter > time.Second {
		t.Errorf("%v of processor time after the interrupt", r.CPUAfter)
	}
	t.Logf("%v of processor time after the interrupt", r.CPUAfter.Round(time.Millisecond))
}

// recorder is an Output that keeps what a cell displays.
type recorder struct{ shown []*kernel.Display }

func (r *recorder) Stream(string, string)              {}
func (r *recorder) Display(d *kernel.Display)          { r.shown = append(r.shown, d) }
func (r *recorder) Input(string, bool) (string, error) { return "", nil }
