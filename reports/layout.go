package reports

// Layout every printed form shares: what a table's columns are and how
// they align, and how far a figure may be drawn smaller to stay on its
// page. The forms set them in their own units (the PDF in millimetres of
// its fonts, LaTeX in its type sizes, Markdown and plain text in
// characters), from these.

// columns is the number of columns of t: its widest row.
func (t table) columns() int {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	return cols
}

// at is a row's cell in column j, empty past the row's end.
func at(r []cell, j int) cell {
	if j < len(r) {
		return r[j]
	}
	return cell{}
}

// rightAligned says which of cols columns of t are set flush right:
// those of numbers, but the first, the rows' labels.
func (t table) rightAligned(cols int) []bool {
	right := make([]bool, cols)
	for j := 1; j < cols; j++ {
		right[j] = true
		for _, r := range t.Rows {
			if !numeric(at(r, j).Text) {
				right[j] = false
			}
		}
	}
	return right
}

// minFigureScale is how much smaller than its size a figure may be drawn
// to stay on the page with what it belongs to (its section's last lines,
// the references), in the PDF (placePart) and in LaTeX (\nbgraphic),
// rather than go to the next page.
const minFigureScale = 0.7
