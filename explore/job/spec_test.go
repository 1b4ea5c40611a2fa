package job

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseGood(t *testing.T) {
	src := `title: Turning coins
lang: fr
limits: {positions: 1000, memory: 1GiB}
sections:
  - title: Golay
    text: |
      Turn over at most seven coins.
    game: {coins: {rule: at-most, r: 7, n: 24, first: 1}}
    show: [values, weights, p-positions, steiner]
  - game: {octal: {code: 0.07, upto: 300}}
    show: [values, period]
  - game: {nim: {heaps: [1, 3, 5, 7], play: misère}}
    show: [p-positions, outcome, moves]
  - game: {wythoff: {size: [6, 6]}}
    position: [3, 4]
    show: [table, moves]
  - game: {product: {factors: [{rule: at-most, r: 2}, {coins: {rule: ruler}}], size: [4, 4], position: [[1, 2], [3, 3]]}}
    show: [table, outcome]
  - nimbers: {op: product, size: 8}
    show: table
`
	j, err := Parse("good.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if j.Title != "Turning coins" || j.Lang != "fr" || j.Limits.Positions != 1000 || j.Limits.Memory != 1<<30 {
		t.Errorf("header: %+v", j)
	}
	if len(j.Sections) != 6 {
		t.Fatalf("%d sections", len(j.Sections))
	}
	if c := j.Sections[0].Coins(); c == nil || c.R != 7 || c.N != 24 || c.First != 1 {
		t.Errorf("coins: %+v", c)
	}
	if o := j.Sections[1].Heap(); o == nil || o.Rule.Name != "octal" || o.Params.String("code") != "0.07" || o.Upto() != 300 {
		t.Errorf("octal: %+v (the unquoted code must keep its digits)", o)
	}
	if s := j.Sections[2]; s.Play != "misere" || len(s.Position.([]int)) != 4 {
		t.Errorf("nim: play %q position %v", s.Play, s.Position)
	}
	if p := j.Sections[4].Product(); len(p.Factors) != 2 || p.Factors[1].Rule != "ruler" {
		t.Errorf("product: %+v", p)
	}
	if n := j.Sections[5].Nimbers(); n.Op != "product" || n.Size != 8 {
		t.Errorf("nimbers: %+v", n)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      []string // substrings of the message
	}{
		{"unknown top key", "title: x\nsectoins: []\n", 2, []string{`did you mean "sections"`}},
		{"no sections", "title: x\n", 1, []string{"sections", "missing"}},
		{"unknown family", "sections:\n  - game: {nimm: {heaps: [1]}}\n    show: [values]\n", 2, []string{`did you mean "nim"`, "known families"}},
		{"two families", "sections:\n  - game: {nim: {heaps: [1]}, wythoff: {size: [2, 2]}}\n    show: [values]\n", 2, []string{"exactly one family"}},
		{"unknown analysis", "sections:\n  - game: {octal: {code: \"0.77\"}}\n    show: [values, weights]\n", 3, []string{"weights", "does not apply to octal", "period"}},
		{"rare on subtraction", "sections:\n  - game: {subtraction: {set: [1, 2]}}\n    show: [values, rare]\n", 3, []string{`"rare" does not apply to subtraction`, "period"}},
		{"rare on coins", "sections:\n  - game: {coins: {rule: at-most, r: 2, n: 5}}\n    show: [rare]\n", 3, []string{`"rare" does not apply to coins`}},
		{"bad octal digit", "sections:\n  - game: {octal: {code: \"0.78\"}}\n    show: [values]\n", 2, []string{`'8'`, "0-7"}},
		{"bad d0", "sections:\n  - game: {octal: {code: \"2.7\"}}\n    show: [values]\n", 2, []string{"0 or 4"}},
		{"negative size", "sections:\n  - game:\n      wythoff:\n        size: [-3, 4]\n    show: [table]\n", 4, []string{"-3", "from 1 to"}},
		{"code of 1000 coins", "sections:\n  - game: {coins: {rule: at-most, r: 3, n: 1000}}\n    show: [values, weights]\n", 3, []string{"weights needs at most 64 coins", "not 1000 coins", "n: 64 or less"}},
		{"absurd coins", "sections:\n  - game: {coins: {rule: at-most, r: 3, n: 1000000000}}\n    show: [values]\n", 2, []string{"1000000000", "1 to 100000000"}},
		{"n and below", "sections:\n  - game: {coins: {rule: at-most, r: 7, n: 24, below: 2^28}}\n    show: [values]\n", 2, []string{"below", "not both"}},
		{"below exactly", "sections:\n  - game: {coins: {rule: exactly, r: 3, below: 100}}\n    show: [values]\n", 2, []string{"rule: at-most with r: 2 or more"}},
		{"below at-most 1", "sections:\n  - game: {coins: {rule: at-most, r: 1, below: 100}}\n    show: [values]\n", 2, []string{"rule: at-most with r: 2 or more"}},
		{"below 3^5", "sections:\n  - game: {coins: {rule: at-most, r: 4, below: 3^5}}\n    show: [values]\n", 2, []string{"like 2^28", `"3^5"`}},
		{"below 2^63", "sections:\n  - game: {coins: {rule: at-most, r: 4, below: 2^63}}\n    show: [values]\n", 2, []string{"2^1 to 2^62"}},
		{"below and steiner", "sections:\n  - game: {coins: {rule: at-most, r: 4, below: 2^10}}\n    show: [values, steiner]\n", 3, []string{"steiner needs at most 64 coins", "below a bound"}},
		{"below and position", "sections:\n  - game: {coins: {rule: at-most, r: 4, below: 2^10}}\n    position: [1, 2]\n    show: [values]\n", 3, []string{"replace below with n"}},
		{"missing r", "sections:\n  - game: {coins: {rule: exactly, n: 10}}\n    show: [values]\n", 2, []string{"r", "missing"}},
		{"misère values", "sections:\n  - game: {octal: {code: \"0.77\", play: misere}}\n    show: [values]\n", 3, []string{"normal-play"}},
		{"moves without position", "sections:\n  - game: {octal: {code: \"0.77\"}}\n    show: [moves]\n", 3, []string{"needs a position"}},
		{"coin out of range", "sections:\n  - game: {coins: {rule: at-most, r: 3, n: 8}}\n    position: [0, 3]\n    show: [moves]\n", 3, []string{"0", "from 1 to 8"}},
		{"not yaml", "sections: [\n", 0, []string{"not valid YAML"}},
		{"bad lang", "lang: de\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"en or fr"}},
		{"bad memory", "limits: {memory: lots}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"4GiB"}},
		{"zero memory", "limits: {memory: 0}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.memory", "4GiB"}},
		{"zero positions", "limits: {positions: 0}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.positions", "at least 1"}},
		{"bad time", "limits: {time: soon}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.time", "20m", "soon"}},
		{"time without a unit", "limits: {time: 20}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.time", "1h30m"}},
		{"negative time", "limits: {time: -5m}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.time", "positive"}},
		{"time as a list", "limits: {time: [5m]}\nsections:\n  - nimbers: {size: 4}\n    show: [table]\n", 1, []string{"limits.time"}},
		{"heap past the engine's bound", "sections:\n  - game: {nim: {heaps: [1, 3]}}\n    position: [2147483648, 1]\n    show: [moves]\n", 3, []string{"2147483648", "from 0 to 2147483647"}},
		{"nim heap past the bound", "sections:\n  - game: {nim: {heaps: [4294967296]}}\n    show: [p-positions]\n", 2, []string{"from 0 to 2147483647"}},
		{"ruler from 0", "sections:\n  - game: {coins: {rule: ruler, n: 8, first: 0}}\n    show: [values]\n", 2, []string{"first: 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(tt.src))
			var je *Error
			if !errors.As(err, &je) {
				t.Fatalf("err = %v, want a *job.Error", err)
			}
			if je.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", je.Line, tt.line, err)
			}
			if !strings.HasPrefix(err.Error(), "bad.yaml") {
				t.Errorf("message does not start with the file: %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

// FuzzParse checks that no job file, however broken, panics the parser.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, name := range append(files, more...) {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("sections:\n  - game: {octal: {code: \"4.07\"}}\n    show: [values]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := Parse("fuzz.yaml", data)
		if err == nil && len(j.Sections) == 0 {
			t.Error("a job without sections was accepted")
		}
	})
}

func TestExamplesParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			if _, err := ParseFile(name); err != nil {
				t.Fatal(err)
			}
		})
	}
}
