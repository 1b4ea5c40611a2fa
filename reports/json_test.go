package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

func TestJSONGolden(t *testing.T) {
	fx := fixtures()
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := JSON(&b, fx[name]); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasSuffix(b.Bytes(), []byte("}\n")) {
				t.Error("no trailing newline")
			}
			var again bytes.Buffer
			if err := JSON(&again, fixtures()[name]); err != nil || !bytes.Equal(b.Bytes(), again.Bytes()) {
				t.Error("two encodings differ")
			}
			golden(t, name+".json", b.Bytes())
		})
	}
}

// SPEC.md's keys, and its rule that group orders are strings.
func TestJSONKeys(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, golayReport("en")); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Title    string
		Sections []struct {
			Title   string
			Results map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	res := doc.Sections[0].Results
	for key, want := range map[string]string{
		"weights":       "[\n          1,",
		"p_positions":   `"count": 4096`,
		"steiner":       `"lambda": 1`,
		"automorphisms": `"244823040"`,
		"outcome":       `"N"`,
		"moves":         "[\n          []\n        ]",
	} {
		got, ok := res[key]
		if !ok {
			t.Errorf("no key %q", key)
			continue
		}
		if !strings.Contains(string(got), want) {
			t.Errorf("%s = %s, want it to hold %q", key, got, want)
		}
	}
	for _, absent := range []string{"table", "period", "record", "graph"} {
		if _, ok := res[absent]; ok {
			t.Errorf("key %q present though not asked for", absent)
		}
	}
	if !strings.HasPrefix(b.String(), "{\n  \"format\": \"nimbook/1\",\n  \"title\": \"Mogul and the Golay code\",\n  \"sections\": [\n") {
		t.Errorf("head: %.80q", b.String())
	}
	if err := JSON(&b, nil); err == nil {
		t.Error("nil report: no error")
	}
}

// A JSON file read months later says what it is: its format, and per
// section the game as the job file gives it; every key of a period is
// there, "preperiod": 0 included, and only proven and checked_to when no
// period is found (SPEC.md).
func TestJSONSelfDescribing(t *testing.T) {
	sp := &job.Section{Title: "S", Family: "subtraction", Play: "normal",
		Game: heapGame("subtraction", heap.Params{"set": []int{1, 3, 4}, "upto": 50}), Show: []string{"period"}, Position: []int{7, 9}}
	none := &job.Section{Title: "N", Family: "octal", Play: "misere",
		Game: heapGame("octal", heap.Params{"code": "0.07", "upto": 20}), Show: []string{"period"}}
	r := &job.Report{Title: "t", Sections: []*job.SectionResult{
		{Title: "S", Spec: sp, Results: job.Results{Period: &job.Period{Proven: true, Preperiod: 0, Period: 7, CheckedTo: 11}}},
		{Title: "N", Spec: none, Results: job.Results{Period: &job.Period{CheckedTo: 20}}},
		{Title: "no spec", Results: job.Results{Outcome: "P"}},
	}}
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Format   string `json:"format"`
		Sections []struct {
			Game    map[string]map[string]any `json:"game"`
			Results struct {
				Period map[string]any `json:"period"`
			} `json:"results"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != JSONFormat {
		t.Errorf("format %q", doc.Format)
	}
	g := doc.Sections[0].Game["subtraction"]
	if fmt.Sprintf("%v %v %v", g["set"], g["upto"], g["position"]) != "[1 3 4] 50 [7 9]" || g["play"] != nil {
		t.Errorf("game %v", doc.Sections[0].Game)
	}
	if p := doc.Sections[0].Results.Period; len(p) != 4 || p["preperiod"] != 0.0 || p["period"] != 7.0 {
		t.Errorf("proven period %v: want every key", p)
	}
	if g := doc.Sections[1].Game["octal"]; fmt.Sprintf("%v %v %v", g["code"], g["upto"], g["play"]) != "0.07 20 misere" {
		t.Errorf("game %v", doc.Sections[1].Game)
	}
	if p := doc.Sections[1].Results.Period; len(p) != 2 || p["proven"] != false || p["checked_to"] != 20.0 {
		t.Errorf("no period: %v, want proven and checked_to only", p)
	}
	if doc.Sections[2].Game != nil {
		t.Errorf("a section without a job spec has a game: %v", doc.Sections[2].Game)
	}
}
