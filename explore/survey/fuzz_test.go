package survey

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no survey file makes the parser panic or accept
// a survey whose variants lack a checked section.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "surveys", "*.yaml"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("survey: {subtraction: {within: 5, size: \"2..3\"}}\nshow: [period]"))
	f.Add([]byte("survey: {nimbers: {op: [sum, product], size: \"1..4\"}}\nshow: [table]"))
	f.Add([]byte("survey: {test-takeaway: {k: [1, 2], opts: {a: \"1..3\", b: [[1], [2, 3]]}}}\nshow: [values]"))
	f.Add([]byte("survey: {nim: {max-take: \"9223372036854775800..9223372036854775807\"}}\nshow: [period]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f.yaml", data, Options{MaxVariants: 2000})
		if err != nil {
			return
		}
		if len(s.Variants) == 0 || len(s.Variants) > 2000 || s.Hash == "" {
			t.Fatalf("%d variants, hash %q", len(s.Variants), s.Hash)
		}
		for i, v := range s.Variants {
			if v.Index != i || v.Section == nil || v.Section.Family != s.Family {
				t.Fatalf("variant %d: %+v", i, v)
			}
		}
	})
}
