package misere

import (
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/explore/heap"
)

// present turns a proven monoid into a Quotient: generators, normal forms,
// relations, P-portion, tameness. Elements are numbered in the order of
// their normal forms (degree, then lexicographic), so 0 is the identity.
func present(game string, m *monoid) *Quotient {
	k := len(m.mul)
	// Generators: the heaps whose elements the earlier generators do not
	// generate, in heap order.
	var gens []int32
	var genHeaps []int
	in := map[int32]bool{0: true}
	for h := 1; h < len(m.phi); h++ {
		x := m.phi[h]
		if in[x] {
			continue
		}
		gens = append(gens, x)
		genHeaps = append(genHeaps, h)
		// Close the submonoid under the new generator.
		frontier := make([]int32, 0, len(in))
		for y := range in {
			frontier = append(frontier, y)
		}
		for len(frontier) > 0 {
			y := frontier[len(frontier)-1]
			frontier = frontier[:len(frontier)-1]
			for _, g := range gens {
				z := m.mul[y][g]
				if !in[z] {
					in[z] = true
					frontier = append(frontier, z)
				}
			}
		}
	}
	names := make([]string, len(gens))
	for i := range gens {
		names[i] = genName(i)
	}
	// Normal forms: monomials as non-decreasing lists of generator
	// indices, enumerated by degree then lexicographically; the first to
	// reach an element is its normal form. Multiples of a monomial that is
	// not a normal form are not either (the order is compatible with
	// products), so only normal forms are extended.
	word := make([][]int, k)
	found := make([]bool, k)
	order := []int32{0}
	found[0] = true
	word[0] = nil
	normal := map[string]bool{monoKey(nil): true}
	type rel struct {
		left  []int
		right int32
	}
	var rels []rel
	level := [][]int{nil}
	levelEl := []int32{0}
	for len(level) > 0 {
		var next [][]int
		var nextEl []int32
		for i, w := range level {
			last := 0
			if len(w) > 0 {
				last = w[len(w)-1]
			}
			for gi := last; gi < len(gens); gi++ {
				z := m.mul[levelEl[i]][gens[gi]]
				nw := append(append([]int(nil), w...), gi)
				if !found[z] {
					found[z] = true
					word[z] = nw
					order = append(order, z)
					normal[monoKey(nw)] = true
					next = append(next, nw)
					nextEl = append(nextEl, z)
					continue
				}
				// A relation when every divisor by one letter is a normal form.
				minimal := true
				for j := range nw {
					d := append(append([]int(nil), nw[:j]...), nw[j+1:]...)
					if !normal[monoKey(d)] {
						minimal = false
						break
					}
				}
				if minimal {
					rels = append(rels, rel{nw, z})
				}
			}
		}
		level, levelEl = next, nextEl
	}
	perm := make([]int, k) // old index -> new
	for i, x := range order {
		perm[x] = i
	}
	q := &Quotient{Game: game, Order: k}
	q.mul = make([][]int32, k)
	q.inP = make([]bool, k)
	q.Elements = make([]Element, k)
	for i, x := range order {
		q.mul[i] = make([]int32, k)
		for j, y := range order {
			q.mul[i][j] = int32(perm[m.mul[x][y]])
		}
		q.inP[i] = m.inP[x]
		q.Elements[i] = Element{Word: wordString(word[x], names), P: m.inP[x]}
		if m.inP[x] {
			q.P = append(q.P, i)
		}
	}
	for i, h := range genHeaps {
		q.Generators = append(q.Generators, Generator{Name: names[i], Heap: h})
	}
	q.names = names
	for _, r := range rels {
		q.Relations = append(q.Relations, Relation{Left: wordString(r.left, names), Right: wordString(word[r.right], names)})
	}
	phi := make([]int32, len(m.phi))
	for h, x := range m.phi {
		phi[h] = int32(perm[x])
	}
	q.phi = phi
	if k <= 64 {
		q.Table = make([][]int, k)
		for i := range k {
			q.Table[i] = make([]int, k)
			for j := range k {
				q.Table[i][j] = int(q.mul[i][j])
			}
		}
	}
	if n, ok := tameIndex(q.mul, q.inP); ok {
		q.Tame, q.TameName = true, fmt.Sprintf("T_%d", n)
	}
	return q
}

func monoKey(w []int) string { return fmt.Sprint(w) }

// genName names generator i: a, b, ..., z, then a1, b1, ...
func genName(i int) string {
	s := string(rune('a' + i%26))
	if i >= 26 {
		s += fmt.Sprint(i / 26)
	}
	return s
}

// wordString writes a monomial as "a b^2", the identity as "1".
func wordString(w []int, names []string) string {
	if len(w) == 0 {
		return "1"
	}
	var parts []string
	for i := 0; i < len(w); {
		j := i
		for j < len(w) && w[j] == w[i] {
			j++
		}
		if j-i == 1 {
			parts = append(parts, names[w[i]])
		} else {
			parts = append(parts, fmt.Sprintf("%s^%d", names[w[i]], j-i))
		}
		i = j
	}
	return strings.Join(parts, " ")
}

// Presentation writes the generators and relations, e.g.
// "<a, b | a^2 = 1, b^3 = b>".
func (q *Quotient) Presentation() string {
	var gens, rels []string
	for _, g := range q.Generators {
		gens = append(gens, g.Name)
	}
	for _, r := range q.Relations {
		rels = append(rels, r.Left+" = "+r.Right)
	}
	if len(rels) == 0 {
		return "<" + strings.Join(gens, ", ") + ">"
	}
	return "<" + strings.Join(gens, ", ") + " | " + strings.Join(rels, ", ") + ">"
}

// parity sets each element's parity: the parity of the normal-play value
// of the positions mapped to it, read from the generators' heaps (the
// parity of a sum is the sum of the parities). Heaps beyond what Values
// can give leave the parities at 0.
func (q *Quotient) parity(g heap.Game) {
	top := 0
	for _, gen := range q.Generators {
		top = max(top, gen.Heap)
	}
	vals, err := g.Values(top, heap.Limits{})
	if err != nil {
		return
	}
	// A breadth-first walk from the identity by the generators.
	par := make([]int, q.Order)
	for i := range par {
		par[i] = -1
	}
	par[0] = 0
	queue := []int{0}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, gen := range q.Generators {
			y := int(q.mul[x][q.phi[gen.Heap]])
			if par[y] < 0 {
				par[y] = par[x] ^ int(vals[gen.Heap]&1)
				queue = append(queue, y)
			}
		}
	}
	for i := range q.Elements {
		q.Elements[i].Parity = max(par[i], 0)
	}
}
