package job

import (
	"encoding/json"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
)

// Report is what running a job produces: one result per section, in the
// job file's order. Its JSON form is the stable interface of SPEC.md.
type Report struct {
	Title    string           `json:"title"`
	Lang     string           `json:"-"`
	Sections []*SectionResult `json:"sections"`
}

// SectionResult holds the results of one section.
type SectionResult struct {
	Title string `json:"title"`
	// Text is the section's Markdown prose, printed before the results.
	Text string `json:"-"`
	// Source cites where the section's numbers come from (the job file's
	// source key), for the reports to print beside the tables.
	Source string `json:"-"`
	// Spec is the checked section the results come from; renderers read
	// the family, its parameters and the order of show from it.
	Spec    *Section `json:"-"`
	Results Results  `json:"results"`
}

// Results holds one field per analysis; only those asked for are set. The
// JSON keys are SPEC.md's; fields tagged "-" serve the renderers.
type Results struct {
	// Value is the Grundy value of the start of a game given by its moves
	// (SPEC "Games of your own").
	Value         *uint64     `json:"value,omitempty"`
	Values        []uint64    `json:"values,omitempty"`
	Table         any         `json:"table,omitempty"` // [][]uint64, or [][][]uint64 for 3 factors
	Weights       []uint64    `json:"weights,omitempty"`
	PPositions    *PPositions `json:"p_positions,omitempty"`
	Period        *Period     `json:"period,omitempty"`
	Rare          *Rare       `json:"rare,omitempty"`
	RowPeriods    []RowPeriod `json:"row_periods,omitempty"`
	Outcome       string      `json:"outcome,omitempty"`
	Moves         any         `json:"moves,omitempty"` // a list of positions in the family's form; [] from a P-position
	Steiner       *Steiner    `json:"steiner,omitempty"`
	Automorphisms string      `json:"automorphisms,omitempty"`
	Code          *CodeInfo   `json:"code,omitempty"`
	Distribution  [][]uint64  `json:"distribution,omitempty"` // [weight][value]: rows with that many heads and that Grundy value
	Record        *Record     `json:"record,omitempty"`
	Graph         *Graph      `json:"graph,omitempty"`
	Genus         Genera      `json:"genus,omitempty"`
	Quotient      *Quotient   `json:"quotient,omitempty"`
	// MisereMethod says how a misère outcome and its moves were found:
	// "quotient" (through the misère quotient of the heaps involved) or
	// "generic" (the whole position solved by the generic solver); ""
	// under normal play and for Nim, whose rule needs neither.
	MisereMethod string `json:"method,omitempty"`
	// Reached says where a sweep under a time limit (limits.time) stopped
	// before upto; nil when the values reach upto.
	Reached *Reached `json:"reached,omitempty"`
	// Stopped, on the last term kept of a parameter range under a time
	// limit, says where the range stopped; nil when every term was
	// computed in time.
	Stopped *Stopped `json:"stopped,omitempty"`

	// Game describes the game in words, e.g. "octal game 0.77".
	Game string `json:"-"`
	// First is the number of the leftmost coin (coins and products).
	First []int `json:"-"`
	// Method names the algorithm behind weights, p-positions and
	// distribution for coins: "enumeration" or "linear-algebra".
	Method string `json:"-"`
	// Position is the position outcome and moves analysed.
	Position any `json:"-"`
	// PlayMisere is set when outcomes are for misère play.
	PlayMisere bool `json:"-"`
}

// PPositions counts (and, when few, lists) the P-positions.
type PPositions struct {
	Count uint64 `json:"count"`
	// Of is the number of positions counted over.
	Of   uint64 `json:"of,omitempty"`
	List any    `json:"list,omitempty"`
}

// MaxListed is the largest count of P-positions that is also listed.
const MaxListed = 1000

// MethodObserved is the Method of a Period seen in the values but not
// proven (Proven false): the notebook's games given by their moves, which
// have no window argument.
const MethodObserved = "observed"

// Period is a periodicity certificate. Its JSON form (SPEC.md) carries
// every key, "preperiod": 0 included, when a period is proven or observed
// (Period > 0), and only "proven", "checked_to" (and "method") when none
// was found.
type Period struct {
	Proven    bool   `json:"proven"`
	Preperiod int    `json:"preperiod"`
	Period    int    `json:"period"`
	CheckedTo int    `json:"checked_to"`
	Method    string `json:"method,omitempty"` // how it was proven, e.g. "window of max(S)" or "Guy–Smith"
	// Observed is the period the values show at least twice, for a rule
	// whose period cannot be proven (SPEC.md "More heap rules"); then
	// Preperiod and Period are 0.
	Observed *Observed `json:"observed,omitempty"`
	// Algorithm is the sweep that computed the values (heap.Sweep): "plain",
	// "sets", "sparse", "bitset", "dense" or "direct"; "" when the rule
	// does not say.
	Algorithm string `json:"algorithm,omitempty"`
}

// Observed is a period seen in the values, not proven.
type Observed struct {
	Preperiod int `json:"preperiod"`
	Period    int `json:"period"`
}

// MarshalJSON writes the period under SPEC.md's keys: all of them when a
// period was found, none of preperiod and period when not.
func (p Period) MarshalJSON() ([]byte, error) {
	if p.Proven || p.Period > 0 {
		type all Period // without the method, so no recursion
		return json.Marshal(all(p))
	}
	return json.Marshal(struct {
		Proven    bool      `json:"proven"`
		CheckedTo int       `json:"checked_to"`
		Method    string    `json:"method,omitempty"`
		Observed  *Observed `json:"observed,omitempty"`
		Algorithm string    `json:"algorithm,omitempty"`
	}{p.Proven, p.CheckedTo, p.Method, p.Observed, p.Algorithm})
}

// Rare is the split of a heap game's values into rare and common ones
// with the fewest rare positions (Winning Ways ch. 4, "Sparse space spells
// speed"; see heap.SparseSpace). A value with an even number of ones
// outside Mask is rare, one with an odd number common. Type "range": position n
// is rare when g(n) is; type "domain" (codes with a single split digit
// d_T): n is in the sparse set when the parity of g(n) equals that of n − T.
type Rare struct {
	Mask  uint64 `json:"mask"`
	Type  string `json:"type"`        // "range" or "domain"
	T     *int   `json:"t,omitempty"` // the split digit, domain type only
	Count int    `json:"count"`       // rare positions in 0..CheckedTo
	// Positions lists them ([]int, [] when none) when Count ≤ MaxListed.
	Positions any `json:"positions,omitempty"`
	CheckedTo int `json:"checked_to"`
	// Last is the last rare position, -1 when there is none.
	Last int `json:"last"`
	// Largest is the largest value of 0..CheckedTo, first at heap
	// LargestAt: with Last, the statistics the tables of octal games give.
	Largest   uint64 `json:"largest"`
	LargestAt int    `json:"largest_at"`
	// Values are the values split, g(0..CheckedTo), for figures.
	Values []uint64 `json:"-"`
	// Algorithm is the sweep that computed the values, as Period's; it
	// is "dense" for codes whose values are not sparse, with DenseFrom
	// the heap where the sparse-space sweep handed over to it (0: from
	// the start).
	Algorithm string `json:"algorithm,omitempty"`
	DenseFrom int    `json:"dense_from,omitempty"`
	// PeriodFrom is the heap from which the values were filled by a
	// period the values before it prove (heap.Sweep), 0 when swept to the
	// end.
	PeriodFrom int `json:"period_from,omitempty"`
}

// IsRare says whether position n of value g is rare (range type) or in the
// sparse set (domain type): the rule of heap.SparseSpace.IsRare.
func (r *Rare) IsRare(n int, g uint64) bool {
	s := heap.SparseSpace{Mask: r.Mask, Domain: r.Type == "domain"}
	if r.T != nil {
		s.T = *r.T
	}
	return s.IsRare(n, g)
}

// RowPeriod is an additive period observed in one row of a Wythoff table:
// g(x, y + p) = g(x, y) + p for y0 ≤ y within the table. Observed, not proven.
type RowPeriod struct {
	Row    int `json:"row"`
	Period int `json:"period"`
	Start  int `json:"start"`
}

// Steiner says whether the minimum-weight P-positions form a t-design.
type Steiner struct {
	Holds  bool   `json:"holds"`
	T      int    `json:"t,omitempty"`
	K      int    `json:"k,omitempty"`
	V      int    `json:"v,omitempty"`
	Lambda uint64 `json:"lambda,omitempty"`
	// Blocks is the number of minimum-weight words.
	Blocks int `json:"blocks,omitempty"`
}

// CodeInfo describes the linear code of P-positions of a coin game.
type CodeInfo struct {
	Length      int    `json:"length"`
	Dimension   int    `json:"dimension"`
	Words       uint64 `json:"words"`
	MinDistance int    `json:"min_distance"`
	Method      string `json:"method"`
}

// Record is the analysis of a played game.
type Record struct {
	Moves    []RecordMove `json:"moves"`
	Mistakes int          `json:"mistakes"`
	Winner   int          `json:"winner,omitempty"`  // 1 or 2 when the game is over
	Illegal  int          `json:"illegal,omitempty"` // 1-based index of the first illegal move
}

// RecordMove is one move of a played game.
type RecordMove struct {
	Player  int    `json:"player"`
	From    any    `json:"from"`
	To      any    `json:"to"`
	Legal   bool   `json:"legal"`
	Before  string `json:"before"` // outcome of From: "P" or "N"
	After   string `json:"after"`
	Mistake bool   `json:"mistake"`
	Missed  any    `json:"missed,omitempty"` // the winning moves missed
}

// Graph is a small game drawn as positions and moves.
type Graph struct {
	Nodes  int      `json:"nodes"`
	Edges  int      `json:"edges"`
	Kernel []string `json:"kernel"` // labels of the P-positions
	DOT    string   `json:"dot"`

	// For drawings: every position's label in breadth-first order from the
	// start, whether it is a P-position, and the moves as index pairs.
	Labels []string `json:"-"`
	P      []bool   `json:"-"`
	Moves  [][2]int `json:"-"`
}

// heldBytes is about the memory results hold: their sequences, tables and
// lists (the large parts; the rest is a few kilobytes).
func (r *Results) heldBytes() int64 {
	n := 8 * int64(len(r.Values)+len(r.Weights))
	for _, row := range r.Distribution {
		n += 24 + 8*int64(len(row))
	}
	switch t := r.Table.(type) {
	case [][]uint64:
		for _, row := range t {
			n += 24 + 8*int64(len(row))
		}
	case [][][]uint64:
		for _, plane := range t {
			for _, row := range plane {
				n += 24 + 8*int64(len(row))
			}
		}
	}
	if r.Rare != nil && len(r.Rare.Values) > 0 && len(r.Values) == 0 {
		n += 8 * int64(len(r.Rare.Values))
	}
	if r.Graph != nil {
		n += int64(len(r.Graph.DOT)) + 16*int64(len(r.Graph.Moves)) + 40*int64(len(r.Graph.Labels))
	}
	return n
}

// Genera is the genus of each heap 0..upto (SPEC "genus"): in JSON a list
// [g, γ0, γ1, …] per heap, the superscript as short as it can be written.
type Genera []misere.Genus

// MarshalJSON writes each genus as [g, γ0, γ1, …].
func (gs Genera) MarshalJSON() ([]byte, error) {
	out := make([][]int, len(gs))
	for i, g := range gs {
		out[i] = append([]int{g.Normal}, g.Misere...)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (gs *Genera) UnmarshalJSON(b []byte) error {
	var rows [][]int
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	out := make(Genera, len(rows))
	for i, r := range rows {
		if len(r) > 0 {
			out[i] = misere.Genus{Normal: r[0], Misere: r[1:]}
		}
	}
	*gs = out
	return nil
}

// MaxQuotientTable is the largest order whose multiplication table the
// results carry (SPEC "quotient"): larger tables are long and unread.
const MaxQuotientTable = 64

// Quotient is the misère quotient of a heap rule over the heaps 1..Heaps
// (SPEC "quotient"), elements written as words in the generators.
type Quotient struct {
	Heaps    int  `json:"heaps"`
	Order    int  `json:"order"`
	PPortion int  `json:"p_portion"` // the number of elements in the P-portion
	Tame     bool `json:"tame"`
	// TameName is T_n when the quotient is tame, "" when wild.
	TameName   string              `json:"tame_name"`
	Generators []QuotientGenerator `json:"generators"`
	// Relations are "left = right", e.g. "a^2 = 1".
	Relations []string `json:"relations"`
	// Elements are the elements' normal-form words, the identity "1"
	// first; P lists the P-portion among them.
	Elements []string `json:"elements"`
	P        []string `json:"p"`
	// Pretending is the element of each heap 0..Heaps.
	Pretending []string `json:"pretending"`
	// Period is the period of Pretending when one is proven, else nil.
	Period *QuotientPeriod `json:"period"`
	// Table is the multiplication table, by indices into Elements, when
	// Order ≤ MaxQuotientTable; absent otherwise.
	Table [][]int `json:"table,omitempty"`
}

// QuotientGenerator is a generator and the heap that introduced it.
type QuotientGenerator struct {
	Name string `json:"name"`
	Heap int    `json:"heap"`
}

// QuotientPeriod is a proven period of the pretending function.
type QuotientPeriod struct {
	Preperiod int `json:"preperiod"`
	Period    int `json:"period"`
}

// quotientResult writes a quotient under SPEC's keys.
func quotientResult(q *misere.Quotient) *Quotient {
	out := &Quotient{Heaps: q.Heaps, Order: q.Order, PPortion: len(q.P), Tame: q.Tame, TameName: q.TameName,
		Generators: []QuotientGenerator{}, Relations: []string{}, Elements: []string{}, P: []string{}, Pretending: []string{}}
	for _, g := range q.Generators {
		out.Generators = append(out.Generators, QuotientGenerator{Name: g.Name, Heap: g.Heap})
	}
	for _, r := range q.Relations {
		out.Relations = append(out.Relations, r.Left+" = "+r.Right)
	}
	for _, e := range q.Elements {
		out.Elements = append(out.Elements, e.Word)
	}
	word := func(i int) string {
		if i >= 0 && i < len(q.Elements) {
			return q.Elements[i].Word
		}
		return "?"
	}
	for _, i := range q.P {
		out.P = append(out.P, word(i))
	}
	for _, i := range q.Pretending {
		out.Pretending = append(out.Pretending, word(i))
	}
	if p := q.Period; p != nil && p.Proven {
		out.Period = &QuotientPeriod{Preperiod: p.Preperiod, Period: p.Period}
	}
	if q.Order <= MaxQuotientTable && q.Table != nil {
		out.Table = q.Table
	}
	return out
}
