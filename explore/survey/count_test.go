package survey

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		name string
		x    float64
		want string
	}{
		{"small", 252, "252"},
		{"thousands", 77_000, "77k"},
		{"millions", 4_730_000, "4.73M"},
		{"billions", 3.28e9, "3.28G"},
		{"beyond", 7.94e13, "7.94e+13"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := count(c.x); got != c.want {
				t.Errorf("count(%g) = %q, want %q", c.x, got, c.want)
			}
		})
	}
}
