package reports

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// frenchFaults finds what a French teacher corrects in a text's typography:
// a plain space before ; : ! ? or », or after «, where a no-break space
// goes (U+202F before ; ! ? and inside « », U+00A0 before :), no space at
// all there, and the typewriter apostrophe for ’ (as in templates'
// TestFrenchTypography).
var frenchFaults = regexp.MustCompile(`[ ][;:!?»]|«[ ]|[^ \x{00a0}\x{202f}]»|«[^ \x{00a0}\x{202f}]|[^\x{00a0} ]:[ ]|[^\x{202f} ][;!?][ ]|'`)

// The French handouts, every word of them (the job files' titles, prose and
// sources, the templates' messages, the rules' descriptions, the OEIS
// names), are set as French typography wants.
func TestFrenchHandoutsTypography(t *testing.T) {
	files, err := filepath.Glob("../examples/handouts/*.fr.yaml")
	if err != nil || len(files) < 6 {
		t.Fatalf("French handouts: %v, %v", files, err)
	}
	code := regexp.MustCompile("`[^`]*`")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, runFile(t, file), Options{}); err != nil {
				t.Fatal(err)
			}
			for n, line := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(line, "| :--") || strings.HasPrefix(line, "| --") {
					continue // a table's alignment row
				}
				line = code.ReplaceAllString(line, "x")
				for _, loc := range frenchFaults.FindAllStringIndex(line, -1) {
					t.Errorf("line %d: %q", n+1, line[max(0, loc[0]-15):min(len(line), loc[1]+15)])
				}
			}
		})
	}
}
