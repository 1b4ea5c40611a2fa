package survey

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/explore/version"
)

// Canonical returns the canonical JSON of v: object keys sorted, no
// spaces, no HTML escaping, numbers as written. Stored results are
// canonical so that the same variant gives the same bytes on any machine.
func Canonical(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canonicalBytes(raw)
}

func canonicalBytes(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// hash identifies a survey by its analyses, its position and the game of
// every variant, in order.
func hash(s *Survey) string {
	h := sha256.New()
	head, _ := Canonical(map[string]any{"family": s.Family, "show": s.Show, "position": positionOf(s)})
	h.Write(head)
	h.Write([]byte{'\n'})
	for _, v := range s.Variants {
		g, _ := Canonical(v.Game())
		h.Write(g)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func positionOf(s *Survey) any {
	if len(s.Variants) == 0 || s.Family == "nim" {
		return nil // nim's position is its heaps, a parameter
	}
	return s.Variants[0].Section.Position
}

// compact renders a parameter value on one line: 0.07, 3, [1,3,4].
func compact(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := Canonical(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Version is nimbook's version as the build records it: the module
// version of a released build, else the VCS revision, else "devel".
func Version() string { return version.String() }

// Cost is the estimated work of one variant, known before it starts.
type Cost struct {
	// Positions counts the heap sizes, table cells or rows computed.
	Positions int64
	// Steps estimates the elementary steps (options examined).
	Steps float64
	// Memory estimates the bytes of the tables kept.
	Memory int64
}

// Estimate returns the cost of a variant, from its parameters alone.
// Coin games are estimated by their value sequence: their codes are
// analysed by linear algebra when enumeration is too large, and the
// engine's own limits refuse what is still too large.
func Estimate(v *Variant) Cost {
	s := v.Section
	want := func(a string) bool {
		for _, x := range s.Show {
			if x == a {
				return true
			}
		}
		return false
	}
	switch s.Family {
	case "nim", "subtraction", "octal", "hex":
		u := int64(0)
		split := 0.0
		switch s.Family {
		case "nim":
			u = int64(s.Nim.Upto)
		case "subtraction":
			u = int64(s.Subtraction.Upto)
		default:
			u = int64(s.Octal.Upto)
			split = splitFactor(s.Octal.Code, s.Octal.Hex)
		}
		if !(want("values") || want("period") || want("rare") || want("p-positions")) {
			return Cost{Positions: 1, Steps: 1, Memory: 1 << 10}
		}
		n := float64(u + 1)
		c := Cost{Positions: u + 1, Steps: n + split*n*n, Memory: 8 * (u + 1)}
		if split > 0 {
			c.Memory += 16 * (u + 1)
		}
		if s.Family == "subtraction" {
			c.Steps = n * float64(len(s.Subtraction.Set))
		}
		return c
	case "wythoff":
		a, b := int64(s.Wythoff.Size[0]), int64(s.Wythoff.Size[1])
		return Cost{Positions: a * b, Steps: float64(a*b) * float64(a+b), Memory: 16 * a * b}
	case "coins":
		n := int64(s.Coins.N)
		return Cost{Positions: n, Steps: float64(n * n), Memory: 64 * n}
	case "product":
		cells := int64(1)
		for _, x := range s.Product.Size {
			cells *= int64(x)
		}
		return Cost{Positions: cells, Steps: float64(cells), Memory: 8 * cells}
	case "nimbers":
		n := int64(s.Nimbers.Size)
		return Cost{Positions: n * n, Steps: float64(n * n), Memory: 8 * n * n}
	}
	return Cost{Positions: 1, Steps: 1}
}

// splitFactor is the share of u² the value sweep of a code spends on
// splits: about 1/4 for two heaps and 1/4 + 1/6 for three (the engine's
// own estimate), 0 for codes that never split.
func splitFactor(code string, hex bool) float64 {
	_, frac, _ := strings.Cut(code, ".")
	f := 0.0
	for _, d := range frac {
		var x int
		fmt.Sscanf(string(d), "%x", &x)
		if x&4 != 0 && f < 0.25 {
			f = 0.25
		}
		if hex && x&8 != 0 {
			f = 0.25 + 1.0/6
		}
	}
	return f
}
