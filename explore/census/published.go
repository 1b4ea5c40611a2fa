package census

import (
	_ "embed"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/heap"
)

//go:embed published.yaml
var publishedYAML []byte

// Source is a publication the data cites.
type Source struct {
	Who   string `yaml:"who" json:"who"`
	Title string `yaml:"title" json:"title"`
	Where string `yaml:"where" json:"where"`
	Note  string `yaml:"note,omitempty" json:"note,omitempty"`
}

// Correction is an error found in a published table.
type Correction struct {
	Codes           []string `yaml:"codes"`
	Text            string   `yaml:"text"`
	FirstDifference int      `yaml:"first_difference,omitempty"`
	Sources         []string `yaml:"sources"`
}

// Largest is the largest value of a sequence and the first heap with it.
type Largest struct {
	Value int `yaml:"value" json:"value"`
	At    int `yaml:"at" json:"at"`
}

// RareStats are the published rare-value statistics of a game.
type RareStats struct {
	Mask  string `yaml:"mask" json:"mask"` // hexadecimal, or "1+pos" as for 0.127
	Count int    `yaml:"count" json:"count"`
	Last  int    `yaml:"last" json:"last"`
}

// SolvedBy names who first solved a game, and when.
type SolvedBy struct {
	Who  string `yaml:"who" json:"who"`
	Year int    `yaml:"year" json:"year"`
}

// Game is the published entry of a standard form.
type Game struct {
	Code      string `yaml:"code" json:"code"`
	Status    string `yaml:"status" json:"status"` // StatusSolved or StatusUnsolved
	Preperiod int    `yaml:"preperiod,omitempty" json:"preperiod,omitempty"`
	Period    int    `yaml:"period,omitempty" json:"period,omitempty"`
	Values    string `yaml:"values,omitempty" json:"-"`
	// Reduced: Preperiod and Values are of the normal form, on heaps
	// heap.StandardForm.Reduced smaller, as the source prints them.
	Reduced  bool       `yaml:"reduced,omitempty" json:"-"`
	Largest  *Largest   `yaml:"largest,omitempty" json:"largest,omitempty"`
	Rare     *RareStats `yaml:"rare,omitempty" json:"rare,omitempty"`
	Computed int        `yaml:"computed,omitempty" json:"computed,omitempty"`
	SolvedBy *SolvedBy  `yaml:"solved_by,omitempty" json:"solved_by,omitempty"`
	Sources  []string   `yaml:"sources" json:"sources"`
}

// Statuses of a published game.
const (
	StatusSolved   = "solved"
	StatusUnsolved = "unsolved"
)

// Table is the published data.
type Table struct {
	Sources     map[string]Source `yaml:"sources"`
	Corrections []Correction      `yaml:"corrections"`
	Games       []Game            `yaml:"games"`
	byCode      map[string]*Game
}

// Parse reads published data in the form of published.yaml and checks it:
// every code canonical and listed once, every status known, every source
// cited defined, values as long as preperiod + period.
func Parse(data []byte) (*Table, error) {
	var t Table
	if err := yaml.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("census: published data: %w", err)
	}
	t.byCode = make(map[string]*Game, len(t.Games))
	cited := func(what string, keys []string) error {
		if len(keys) == 0 {
			return fmt.Errorf("census: published data: %s cites no source", what)
		}
		for _, k := range keys {
			if _, ok := t.Sources[k]; !ok {
				return fmt.Errorf("census: published data: %s cites %q, not in sources", what, k)
			}
		}
		return nil
	}
	for i := range t.Games {
		g := &t.Games[i]
		o, err := heap.ParseOctal(g.Code)
		if err != nil {
			return nil, fmt.Errorf("census: published data: game %d: %w", i, err)
		}
		if o.Code() != g.Code {
			return nil, fmt.Errorf("census: published data: %q is written %q in canonical form", g.Code, o.Code())
		}
		if t.byCode[g.Code] != nil {
			return nil, fmt.Errorf("census: published data: %s is listed twice", g.Code)
		}
		switch g.Status {
		case StatusSolved:
			if g.Period < 1 || g.Preperiod < 0 {
				return nil, fmt.Errorf("census: published data: %s: solved with period %d, preperiod %d", g.Code, g.Period, g.Preperiod)
			}
			if g.Values != "" && len(g.Values) != g.Preperiod+g.Period {
				return nil, fmt.Errorf("census: published data: %s: %d values, want preperiod + period = %d", g.Code, len(g.Values), g.Preperiod+g.Period)
			}
			for _, c := range g.Values {
				if _, ok := digitValue(c); !ok {
					return nil, fmt.Errorf("census: published data: %s: value %q is not 0-9 or A-Z", g.Code, c)
				}
			}
		case StatusUnsolved:
		default:
			return nil, fmt.Errorf("census: published data: %s: status %q, want solved or unsolved", g.Code, g.Status)
		}
		if err := cited(g.Code, g.Sources); err != nil {
			return nil, err
		}
		t.byCode[g.Code] = g
	}
	for i, c := range t.Corrections {
		if err := cited(fmt.Sprintf("correction %d", i+1), c.Sources); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// digitValue reads a value written as the sources print them.
func digitValue(c rune) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// Published returns the bundled data (published.yaml).
var Published = sync.OnceValues(func() (*Table, error) { return Parse(publishedYAML) })

// Game returns the entry of a standard form, nil when none.
func (t *Table) Game(code string) *Game { return t.byCode[code] }

// Value returns g(n) of a solved game whose values are published, ok
// false otherwise.
func (g *Game) Value(n int) (uint64, bool) {
	if g.Status != StatusSolved || g.Values == "" || n < 0 {
		return 0, false
	}
	if n >= len(g.Values) {
		n = g.Preperiod + (n-g.Preperiod)%g.Period
	}
	return digitValue(rune(g.Values[n]))
}
