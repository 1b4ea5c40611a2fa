package misere

import (
	"fmt"
	"testing"
)

func TestCyclic(t *testing.T) {
	cases := []struct {
		c       cyclic
		i, j    int32
		product int32
	}{
		{cyclic{2, 2}, 1, 1, 2},
		{cyclic{2, 2}, 2, 2, 2}, // z^4 = z^2
		{cyclic{2, 2}, 3, 2, 3}, // z^5 = z^3
		{cyclic{0, 2}, 1, 1, 0}, // z^2 = 1
		{cyclic{1, 2}, 2, 1, 1}, // z^3 = z
		{cyclic{3, 4}, 5, 6, 3}, // z^11 = z^7 = z^3
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.c, c.i, c.j), func(t *testing.T) {
			if got := c.c.mul(c.i, c.j); got != c.product {
				t.Errorf("z^%d z^%d = z^%d, want z^%d", c.i, c.j, got, c.product)
			}
		})
	}
}

func TestSubsets(t *testing.T) {
	cases := []struct {
		k    int
		want string
	}{
		{1, "[[2] [5] [7]]"},
		{2, "[[2 5] [2 7] [5 7]]"},
		{3, "[[2 5 7]]"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.k), func(t *testing.T) {
			var got [][]int
			err := subsets([]int{2, 5, 7}, c.k, func(s []int) (bool, error) {
				got = append(got, append([]int(nil), s...))
				return false, nil
			})
			if err != nil || fmt.Sprint(got) != c.want {
				t.Errorf("subsets %v, %v; want %s", got, err, c.want)
			}
		})
	}
}

func TestPowerIndex(t *testing.T) {
	// {1, z, z^2} with z^3 = z: z and z^2 have index 1, the identity 0.
	m := &monoid{mul: [][]int32{
		{0, 1, 2},
		{1, 2, 1},
		{2, 1, 2},
	}}
	cases := []struct {
		x    int32
		want int32
	}{{0, 0}, {1, 1}, {2, 1}}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.x), func(t *testing.T) {
			if got := powerIndex(m, c.x); got != c.want {
				t.Errorf("index %d, want %d", got, c.want)
			}
		})
	}
}
