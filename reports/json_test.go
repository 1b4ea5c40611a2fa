package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
	if !strings.HasPrefix(b.String(), "{\n  \"title\": \"Mogul and the Golay code\",\n  \"sections\": [\n") {
		t.Errorf("head: %.80q", b.String())
	}
	if err := JSON(&b, nil); err == nil {
		t.Error("nil report: no error")
	}
}
