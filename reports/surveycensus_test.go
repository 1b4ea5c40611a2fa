package reports

import (
	"bytes"
	"strings"
	"testing"
)

func init() {
	// Every code with at most two digits to heap 2000: the census section
	// on a small census, fast enough for a test.
	surveyFixtures["census"] = `title: Octal census, two digits
survey:
  octal: {digits: 2, upto: 2000}
show: [period, rare]
`
}

func TestSurveyCensusGolden(t *testing.T) {
	r := surveyReport(t, "census")
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			var b bytes.Buffer
			if err := SurveyMarkdown(&b, r, Options{Lang: lang}); err != nil {
				t.Fatal(err)
			}
			golden(t, "survey-census."+lang+".md", b.Bytes())
		})
	}
	t.Run("html", func(t *testing.T) {
		var b bytes.Buffer
		if err := SurveyHTML(&b, r, Options{}); err != nil {
			t.Fatal(err)
		}
		golden(t, "survey-census.html", b.Bytes())
	})
}

// The census of the 63 codes of at most two digits to heap 2000, as the
// published tables have it (T. Czajka's): no disagreement; 0.16 and 0.56
// need more heaps; Kayles grouped with its standard form.
func TestSurveyCensusSays(t *testing.T) {
	var b bytes.Buffer
	if err := SurveyMarkdown(&b, surveyReport(t, "census"), Options{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"Each of the 63 codes",
		"0 disagree, 0 new",
		"2 need more heaps",
		"71 + 12 (proof to 167)",
		"Anil Gangolli, Thane Plambeck, 1989: 0.16, 0.56",
		"proof needs heap 509",
		"0.161 and 0.36 one game",
		"tczajka/octal-games",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the census says no %q", want)
		}
	}
}

// The algorithm of a sweep is shown when the rare results name it.
func TestRareAlgorithm(t *testing.T) {
	for _, c := range []struct{ results, want string }{
		{`{"rare": {"mask": 1, "algorithm": "bitset"}}`, "bitset"},
		{`{"rare": {"mask": 1}}`, ""},
		{`{"period": {"proven": false}}`, ""},
		{``, ""},
		{`not json`, ""},
	} {
		t.Run(c.results, func(t *testing.T) {
			if got := rareAlgorithm([]byte(c.results)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
