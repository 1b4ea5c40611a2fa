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
// than 0 (coins numbered from 1): First(k) is axis k's first.
type Firster interface {
	First(k int) int
}

// First returns the first number of axis k of the section's game (its
// Firster), 0 by default.
func (s *Section) First(k int) int {
	if f, ok := s.Game.(Firster); ok {
		return f.First(k)
	}
	return 0
}

// CellSets is a game whose positions are sets of cells, which reports
// write as {(i, j), …} (a tartan product's heads).
type CellSets interface {
	CellSets() bool
}
