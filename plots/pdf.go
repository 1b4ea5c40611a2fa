package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"time"

	"codeberg.org/go-pdf/fpdf"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfEpoch dates the figures' PDF files: the same plot gives the same
// bytes (vgpdf offers no other way to set the date than fpdf's default).
var pdfEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func init() {
	// Run before any figure is written: fpdf's defaults are globals
	// without a lock.
	fpdf.SetDefaultCreationDate(pdfEpoch)
	fpdf.SetDefaultModificationDate(pdfEpoch)
	fpdf.SetDefaultCatalogSort(true)
}

// PDF writes p as a one-page PDF of the given size, for a LaTeX document
// to include: in vectors, with its font embedded, when every word of the
// figure is in the code page vgpdf writes text in (Windows-1252: the
// letters of English and French); else, as a figure with 10⁴ on its
// colour scale, as a 300 dpi image in a PDF page of that size, which
// shows every character.
func PDF(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	c := vgpdf.New(width, height)
	check := &latinText{CanvasSizer: c}
	p.Draw(draw.New(check))
	var b bytes.Buffer
	if !check.outside {
		if _, err := c.WriteTo(&b); err != nil {
			return fmt.Errorf("plots: %w", err)
		}
	} else if err := rasterPDF(&b, p, width, height); err != nil {
		return err
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// latinText watches the words a plot draws for a character outside
// Windows-1252, which vgpdf's fonts cannot show.
type latinText struct {
	vg.CanvasSizer
	outside bool
}

func (l *latinText) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Style == xfont.StyleItalic {
		// vgpdf (gonum/plot v0.17) embeds the first face's file for every
		// face of a PDF (each is "font.z" to go-pdf), and asks for an
		// italic face by a style it did not add it under. DejaVu Sans
		// Oblique is DejaVu Sans slanted by 11°: the upright face, drawn
		// slanted so, looks the same.
		up := font.From(Sans, f.Font.Size)
		l.Push()
		l.Translate(pt)
		slant.apply(l)
		l.fill(font.Face{Font: up, Face: font.DefaultCache.Lookup(up, up.Size).Face}, vg.Point{}, s)
		l.Pop()
		return
	}
	l.fill(f, pt, s)
}

// fill is FillString in Windows-1252.
func (l *latinText) fill(f font.Face, pt vg.Point, s string) {
	// vgpdf writes the string's bytes as they are, in the font's code
	// page: UTF-8 "é" would print as "Ã©".
	b := make([]byte, 0, len(s))
	for _, r := range s {
		c, ok := cp1252Byte(r)
		if !ok {
			l.outside = true
			c = '?'
		}
		b = append(b, c)
	}
	l.CanvasSizer.FillString(f, pt, string(b))
}

// cp1252High are Windows-1252's characters from 0x80 to 0x9f (0 where
// it has none).
var cp1252High = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}

// cp1252Byte is r's byte in Windows-1252, if it has one.
func cp1252Byte(r rune) (byte, bool) {
	if r < 0x80 || r >= 0xa0 && r <= 0xff {
		return byte(r), true
	}
	for i, c := range cp1252High {
		if c == r && c != 0 {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// rasterPDF draws p at 300 dpi and places the image on a page of the
// figure's size.
func rasterPDF(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(300), vgimg.UseBackgroundColor(color.White))
	p.Draw(draw.New(c))
	var img bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&img); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	wp, hp := width.Points(), height.Points()
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: wp, Ht: hp}})
	f.SetMargins(0, 0, 0)
	f.SetAutoPageBreak(false, 0)
	f.AddPage()
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	f.RegisterImageOptionsReader("figure", opt, &img)
	f.ImageOptions("figure", 0, 0, wp, hp, false, opt, 0, "")
	if err := f.Output(w); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// obliqueAngle is the slant of DejaVu Sans Oblique.
const obliqueAngle = 11 * math.Pi / 180

// shear is the map (x, y) ↦ (x + y·tan θ, y) as a canvas can apply it,
// which knows rotations and scalings only: R(u)·diag(sx, sy)·R(v), from
// its singular value decomposition.
type shear struct{ u, sx, sy, v float64 }

var slant = newShear(obliqueAngle)

func newShear(theta float64) shear {
	m := mat.NewDense(2, 2, []float64{1, math.Tan(theta), 0, 1})
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDFull) {
		panic("plots: no SVD of a shear") // not reached: every matrix has one
	}
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	sv := svd.Values(nil)
	if mat.Det(&u) < 0 {
		// Reflections both: their second columns turned make them
		// rotations, the product unchanged.
		for i := range 2 {
			u.Set(i, 1, -u.At(i, 1))
			v.Set(i, 1, -v.At(i, 1))
		}
	}
	// M = U·Σ·Vᵀ; Vᵀ is the rotation by minus V's angle.
	return shear{u: math.Atan2(u.At(1, 0), u.At(0, 0)), sx: sv[0], sy: sv[1], v: -math.Atan2(v.At(1, 0), v.At(0, 0))}
}

// apply sets the shear on c, for what it draws next.
func (s shear) apply(c vg.Canvas) {
	c.Rotate(s.u)
	c.Scale(s.sx, s.sy)
	c.Rotate(s.v)
}
