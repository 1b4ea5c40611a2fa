// Package controlchar says which characters of users' text must never be
// passed on as they are, to a terminal, a report or a drawing: the one rule
// every output of nimbook applies, whatever it then does with them (a
// terminal shows them escaped, a report drops them).
//
// Such a character is obeyed rather than shown: an escape sequence moves
// the cursor or rewrites what was printed, a bidirectional override
// reorders the text a reader sees (the "Trojan source" trick). Line feed
// and tab are layout, not controls, and pass.
package controlchar

// Is reports whether r is a control character: a C0 control but tab and
// line feed, DEL, a C1 control, or a bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069).
func Is(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
