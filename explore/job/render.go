package job

// How reports word the games of families that are not heap rules: each
// family's GameSpec implements what applies to it, and reports find it by
// type assertion, so that no renderer names a family (issue 27).

// Tx translates a key of the text catalogue of package templates, with
// its arguments, into the report's language.
type Tx func(key string, args map[string]any) string

// Describer is a game that reports describe in words: the words for the
// game itself (before its play convention); res are the section's results
// (a row of coins as long as its values reach). Played reports whether
// reports add the play convention after them (a nimbers table has none).
type Describer interface {
	Describe(tx Tx, lang string, res *Results) (words string, played bool)
}

// Tabler is a game whose table reports introduce with texts of their own:
// the table's corner and the sentence before it ("" for none).
type Tabler interface {
	TableTexts(tx Tx) (corner, intro string)
}

// ValueTable is a game whose table holds values of an operation, not of
// positions: no P-positions in bold, no note about them (nimbers).
type ValueTable interface {
	ValueTable() bool
}

// Over is a game whose P-positions reports say what they were counted
// over ("" for nothing to say).
type Over interface {
	PPositionsOver(tx Tx) string
}

// Firster is a game whose axes are numbered from a first number other
// than 0 (coins numbered from 1): FirstOf(k) is axis k's first.
type Firster interface {
	FirstOf(k int) int
}

// First returns the first number of axis k of the section's game (its
// Firster), 0 by default.
func (s *Section) FirstOf(k int) int {
	if f, ok := s.Game.(Firster); ok {
		return f.FirstOf(k)
	}
	return 0
}

// CellSets is a game whose positions are sets of cells, which reports
// write as {(i, j), …} (a tartan product's heads).
type CellSets interface {
	CellSets() bool
}

// CoinRows is a game whose positions are rows of coins numbered from its
// first: reports write its values as f(n) with the coins' numbering, its
// positions as rows of coins, its P-positions one row a line, and say how
// its code was found. CoinRows holds on a nil spec (SpecOf), for the
// reports that know a family by its key only (a survey's).
type CoinRows interface {
	CoinRows() bool
	// Board is the number of coins and the first one's number.
	Board() (n, first int)
}

// IsCoinRows says whether the games of g's type are rows of coins.
func IsCoinRows(g GameSpec) bool {
	c, ok := g.(CoinRows)
	return ok && c.CoinRows()
}

// AcrossDescriber is a game that reports describe with the parameter that
// varies across sections written as its name ("turn over at most r
// coins"): text formats a key of the catalogue (an error when it cannot);
// "" when the words cannot hold a name in its place.
type AcrossDescriber interface {
	DescribeAcross(text func(key string, args any) (string, error), key string) string
}
