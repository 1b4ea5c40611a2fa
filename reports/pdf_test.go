package reports

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"

	"rsc.io/pdf"
)

// pdfInfo is what the tests read back from a PDF: its pages, the fonts
// they use, and the text of each page.
type pdfInfo struct {
	Pages int
	Fonts []string // base font names, deduplicated, in page order
	// Embedded counts the fonts whose TrueType program is in the file.
	Embedded int
	Text     []string // per page, the shown strings joined
	Title    string
}

// readPDF parses a PDF with rsc.io/pdf, an independent reader, so that a
// file fpdf writes but no reader can open fails here.
func readPDF(t *testing.T, b []byte) pdfInfo {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("%PDF-1.")) {
		t.Fatalf("no PDF header: %q", b[:min(len(b), 16)])
	}
	if !bytes.HasSuffix(bytes.TrimRight(b, "\r\n"), []byte("%%EOF")) {
		t.Fatalf("no %%%%EOF at the end")
	}
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("rsc.io/pdf cannot read the file: %v", err)
	}
	info := pdfInfo{Pages: r.NumPage()}
	info.Title = r.Trailer().Key("Info").Key("Title").Text()
	seen := map[string]bool{}
	for i := 1; i <= info.Pages; i++ {
		pg := r.Page(i)
		for _, name := range pg.Fonts() {
			ft := pg.Font(name)
			bf := ft.BaseFont()
			if !seen[bf] {
				seen[bf] = true
				info.Fonts = append(info.Fonts, bf)
				if ft.V.Key("DescendantFonts").Index(0).Key("FontDescriptor").Key("FontFile2").Kind() == pdf.Stream {
					info.Embedded++
				}
			}
		}
		// rsc.io/pdf's own text extraction leaves Identity-H strings
		// undecoded and drops bytes; interpret the content stream and
		// decode the shown strings, whose codes fpdf writes as the
		// characters in UTF-16BE (its ToUnicode map is the identity).
		var sb strings.Builder
		pdf.Interpret(pg.V.Key("Contents"), func(stk *pdf.Stack, op string) {
			n := stk.Len()
			args := make([]pdf.Value, n)
			for i := n - 1; i >= 0; i-- {
				args[i] = stk.Pop()
			}
			switch op {
			case "Tj", "'":
				if n > 0 {
					sb.WriteString(args[n-1].RawString())
				}
			case "TJ":
				if n > 0 {
					for k := 0; k < args[n-1].Len(); k++ {
						if v := args[n-1].Index(k); v.Kind() == pdf.String {
							sb.WriteString(v.RawString())
						}
					}
				}
			case "Td", "TD", "T*", "Tm":
				sb.WriteString("\x00 ")
			}
		})
		info.Text = append(info.Text, utf16be(sb.String()))
	}
	return info
}

func renderPDF(t *testing.T, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := PDF(&b, fixtures()[name], Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPDFStructure(t *testing.T) {
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			b := renderPDF(t, name)
			info := readPDF(t, b)
			r := fixtures()[name]
			// Sections follow one another: each is in the text, none
			// needs a page of its own.
			text := squash(strings.Join(info.Text, ""))
			for _, s := range r.Sections {
				if !strings.Contains(text, squash(scriptless(cleanTitle(s.Title)))) {
					t.Errorf("section %q is not in the text", s.Title)
				}
			}

			if info.Title != r.Title {
				t.Errorf("title %q, want %q", info.Title, r.Title)
			}
			if len(info.Fonts) == 0 {
				t.Fatal("no fonts")
			}
			if info.Embedded != len(info.Fonts) {
				t.Errorf("%d fonts used (%v), %d embedded", len(info.Fonts), info.Fonts, info.Embedded)
			}
			all := strings.Join(info.Text, "\n")
			if !strings.Contains(squash(all), squash(r.Title)) {
				t.Errorf("title %q not in the extracted text:\n%s", r.Title, clipText(all))
			}
			for _, s := range r.Sections {
				if !strings.Contains(squash(all), squash(s.Title)) {
					t.Errorf("section %q not in the extracted text", s.Title)
				}
			}
			if bytes.Contains(b, []byte("/CreationDate")) && !bytes.Contains(b, []byte("D:20000101000000")) {
				t.Error("creation date is not the fixed one")
			}
		})
	}
}

func utf16be(s string) string {
	if len(s)%2 != 0 {
		return s
	}
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return string(utf16.Decode(u))
}

// squash drops white space: extracted text splits and joins words where
// the layout put them.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// The symbols of the seeds must survive in the text layer, not only as
// shapes: ⊗ in a nim-product table, ● and ○ in coin rows, French accents.
func TestPDFText(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"nimbers", []string{"⊗", "≤"}},
		{"golay-fr", []string{"⊕", "pièces", "●", "○", "S(5,8,24)", "759", "2576"}},
		{"nim", []string{"(1,3,5,7)", "✗", "✓"}},
		{"wythoff", []string{"(3,5)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := readPDF(t, renderPDF(t, tc.name))
			all := squash(strings.Join(info.Text, ""))
			for _, w := range tc.want {
				if !strings.Contains(all, squash(w)) {
					t.Errorf("%q not in the text layer:\n%s", w, clipText(all))
				}
			}
		})
	}
}

// Same report, same bytes: no clock, no map order, no random IDs.
func TestPDFDeterministic(t *testing.T) {
	a := renderPDF(t, "golay-fr")
	b := renderPDF(t, "golay-fr")
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same report differ")
	}
}

func TestPDFNil(t *testing.T) {
	if err := PDF(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Fatal("nil report: no error")
	}
}
