package cellgame

import "math/bits"

// canon crops the component k of a frame of h rows to its bounding box and,
// with folding, turns it to the least of its symmetric images: rows
// compared first to last, the short side as the height.
func (wk *worker) canon(k *Board, h int) shape {
	r0, r1 := 0, h-1
	for k[r0] == 0 {
		r0++
	}
	for k[r1] == 0 {
		r1--
	}
	var or uint64
	for r := r0; r <= r1; r++ {
		or |= k[r]
	}
	c0 := bits.TrailingZeros64(or)
	var c shape
	c.h = r1 - r0 + 1
	c.w = 64 - bits.LeadingZeros64(or) - c0
	for r := r0; r <= r1; r++ {
		c.b[r-r0] = k[r] >> uint(c0)
	}
	if wk.s.opts.Fold {
		if c.h > c.w {
			c.b = transpose(&c.b, c.h, c.w)
			c.h, c.w = c.w, c.h
		}
		c.b = least(&c.b, c.h, c.w)
	}
	c.key, c.compact = makeKey(&c.b, c.h, c.w)
	return c
}

// least returns the least of the images of b (an h × w frame, h ≤ w)
// under the mirrors top–bottom and left–right, and under the transpositions
// too when it is square. The images are compared row by row without being
// built: image (src, flip) has src[h−1−i] or src[i] as its row i.
func least(b *Board, h, w int) Board {
	var m Board
	for r := 0; r < h; r++ {
		m[r] = bits.Reverse64(b[r]) >> uint(64-w)
	}
	srcs := [4]*Board{b, &m}
	n := 2
	var t, tm Board
	if h == w {
		t = transpose(b, h, w)
		for r := 0; r < h; r++ {
			tm[r] = bits.Reverse64(t[r]) >> uint(64-w)
		}
		srcs[2], srcs[3] = &t, &tm
		n = 4
	}
	bs, bf := 0, false
	for s := 0; s < n; s++ {
		for _, f := range [2]bool{false, true} {
			if (s != 0 || f) && lessImage(srcs[s], f, srcs[bs], bf, h) {
				bs, bf = s, f
			}
		}
	}
	if !bf {
		return *srcs[bs]
	}
	return flipRows(srcs[bs], h)
}

// lessImage compares two images row by row.
func lessImage(a *Board, af bool, b *Board, bf bool, h int) bool {
	for i := 0; i < h; i++ {
		ra, rb := a[i], b[i]
		if af {
			ra = a[h-1-i]
		}
		if bf {
			rb = b[h-1-i]
		}
		if ra != rb {
			return ra < rb
		}
	}
	return false
}

// flipRows reverses the order of the rows (a mirror top–bottom).
func flipRows(b *Board, h int) Board {
	var f Board
	for r := 0; r < h; r++ {
		f[h-1-r] = b[r]
	}
	return f
}

// transpose turns an h × w frame (w ≤ MaxRows) into a w × h one.
func transpose(b *Board, h, w int) Board {
	var t Board
	for r := 0; r < h; r++ {
		for x := b[r]; x != 0; x &= x - 1 {
			c := bits.TrailingZeros64(x)
			t[c] |= 1 << uint(r)
		}
	}
	return t
}

// makeKey packs a cropped shape into its key.
func makeKey(b *Board, h, w int) (key, bool) {
	var k key
	off := 0
	for r := 0; r < h; r++ {
		x := b[r]
		i, s := off>>6, uint(off&63)
		k[i] |= x << s
		if s != 0 && s+uint(w) > 64 {
			k[i+1] |= x >> (64 - s)
		}
		off += w
	}
	if h*w <= compactCells {
		k[1] |= uint64(h-1)<<(112-64) | uint64(w-1)<<(115-64)
		return k, true
	}
	k[2] |= uint64(h)<<48 | uint64(w)<<56
	return k, false
}

// Canonical returns the component k of a frame of h rows cropped to its
// bounding box and, with fold, turned to the least of its symmetric images
// (the short side as the height), with the box's height and width: the
// representative the solver's memo keys it by. Two components have the
// same representative exactly when one is a translation (or, with fold, a
// symmetry and a translation) of the other.
func Canonical(k Board, h int, fold bool) (Board, int, int) {
	if k.Empty() {
		return k, 0, 0
	}
	wk := worker{s: &Solver{opts: Options{Fold: fold}}}
	c := wk.canon(&k, h)
	return c.b, c.h, c.w
}
