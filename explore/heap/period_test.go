package heap

import (
	"fmt"
	"testing"
)

// crossCheck verifies a proven certificate by brute force on five times
// as many values: the period holds to the end, the preperiod is least (the
// pair just before it differs) and no smaller period holds on the last
// whole period.
func crossCheck(t *testing.T, g Game, c Certificate) {
	t.Helper()
	if !c.Proven {
		return
	}
	big := 5 * (c.CheckedTo + c.Period)
	vs := mustValues(t, g, big)
	for n := c.Preperiod; n+c.Period <= big; n++ {
		if vs[n+c.Period] != vs[n] {
			t.Fatalf("%v: g(%d) = %d ≠ g(%d) = %d: the certificate %+v is wrong",
				g, n+c.Period, vs[n+c.Period], n, vs[n], c)
		}
	}
	if n := c.Preperiod - 1; n >= 0 && vs[n+c.Period] == vs[n] {
		t.Errorf("%v: g(%d) = g(%d): preperiod %d is not least", g, n, n+c.Period, c.Preperiod)
	}
	for q := 1; q < c.Period; q++ {
		differs := false
		for n := big - q - c.Period; n < big-q; n++ {
			if vs[n+q] != vs[n] {
				differs = true
				break
			}
		}
		if !differs {
			t.Errorf("%v: %d is a smaller period than %d", g, q, c.Period)
		}
	}
	if c.CheckedTo > len(vs) {
		t.Errorf("checked_to %d", c.CheckedTo)
	}
}

func TestKnownPeriods(t *testing.T) {
	tests := []struct {
		name      string
		g         Game
		upto      int
		preperiod int
		period    int
		checkedTo int // 0: not asserted
		method    string
	}{
		// MATH.md: S = {1,2,3} gives n mod 4; window of max S = 3 values
		// after a period: g(0..2) = g(4..6).
		{"subtraction 1,2,3", must(NewSubtraction([]int{1, 2, 3})), 100, 0, 4, 6, MethodSubtraction},
		// 0 1 0 1 2 3 2, repeated (explore/game's example).
		{"subtraction 1,3,4", must(NewSubtraction([]int{1, 3, 4})), 100, 0, 7, 10, MethodSubtraction},
		// By hand: 0 0 1 1 2, repeated.
		{"subtraction 2,3", must(NewSubtraction([]int{2, 3})), 100, 0, 5, 7, MethodSubtraction},
		// By hand: 0 1 0 1 2, repeated.
		{"subtraction 1,4", must(NewSubtraction([]int{1, 4})), 100, 0, 5, 8, MethodSubtraction},
		// Computed (cross-checked below): 0 0 1 1 2 2 0 3 then 1 0 2
		// repeated, period 3 from 8.
		{"subtraction 2,4,7", must(NewSubtraction([]int{2, 4, 7})), 100, 8, 3, 0, MethodSubtraction},
		{"subtraction 2,5,6", must(NewSubtraction([]int{2, 5, 6})), 100, 0, 11, 0, MethodSubtraction},
		// seed 004: g = n mod N, N = k + 1 = 4.
		{"nim take ≤ 3", must(NewNim(3)), 100, 0, 4, 6, MethodSubtraction},
		// MATH.md "Heap games": Kayles, period 12 from 71 (last exception
		// 70); the proof compares up to n = 155 and uses g up to 167.
		{"kayles 0.77", mustOctal(t, "0.77"), 300, 71, 12, 167, MethodGuySmith},
		// Dawson's chess 0.137: OEIS A002187 and Winning Ways ch. 4,
		// period 34, exceptions at 0, 14, 16, 17, 31, 34 and 51, so the
		// preperiod is 52; 2·52 + 34 + 3 − 1 + 34 = 174.
		{"dawson's chess 0.137", mustOctal(t, "0.137"), 300, 52, 34, 174, MethodGuySmith},
		// Dawson's Kayles 0.07 is Dawson's chess shifted by one heap
		// (g_0.07(n+1) = g_0.137(n), TestDawsonShift): its last exception
		// is at 52, so n0 = 53; 2·53 + 34 + 2 − 1 + 34 = 175.
		{"dawson's kayles 0.07", mustOctal(t, "0.07"), 300, 53, 34, 175, MethodGuySmith},
		// 4.: split a heap in two without taking; 0 0 1 0 1 0 1 …
		{"4.", mustOctal(t, "4."), 100, 1, 2, 5, MethodGuySmith},
		// 0.f: take one, leaving up to three heaps; 0 1 0 1 … The
		// three-way window: n < 3·1 + 2·2 + 1 = 8, g used up to 9.
		{"hex 0.f", mustHex(t, "0.f"), 100, 0, 2, 9, MethodThreeWay},
		// Never splits: 0.1 is "take a heap of one", g = 0 1 0 0 0 …
		{"0.1", mustOctal(t, "0.1"), 100, 2, 1, 3, MethodPlain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Period(tc.g, mustValues(t, tc.g, tc.upto))
			if !c.Proven || c.Preperiod != tc.preperiod || c.Period != tc.period || c.Method != tc.method ||
				(tc.checkedTo != 0 && c.CheckedTo != tc.checkedTo) {
				t.Errorf("got %+v, want preperiod %d, period %d, checked_to %d, %s",
					c, tc.preperiod, tc.period, tc.checkedTo, tc.method)
			}
			crossCheck(t, tc.g, c)
		})
	}
}

// Winning Ways ch. 4: Dawson's chess 0.137 is Dawson's Kayles 0.07 with
// the heap counted one less.
func TestDawsonShift(t *testing.T) {
	k, c := mustValues(t, mustOctal(t, "0.07"), 1000), mustValues(t, mustOctal(t, "0.137"), 999)
	for n := range c {
		if k[n+1] != c[n] {
			t.Fatalf("g_0.07(%d) = %d, g_0.137(%d) = %d", n+1, k[n+1], n, c[n])
		}
	}
}

func TestPeriodNotProven(t *testing.T) {
	tests := []struct {
		name   string
		g      Game
		upto   int
		method string
	}{
		// One value short of Kayles's certificate (checked_to 167).
		{"kayles to 166", mustOctal(t, "0.77"), 166, MethodNone},
		{"nim", must(NewNim(0)), 100, MethodNim},
		// All-but games are arithmetic-periodic: never a period.
		{"all-but 1", must(NewAllBut([]int{1})), 100, MethodAllBut},
		{"all-but 2,3", must(NewAllBut([]int{2, 3})), 100, MethodAllBut},
		{"empty", mustOctal(t, "0.77"), 0, MethodNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Period(tc.g, mustValues(t, tc.g, tc.upto))
			want := Certificate{CheckedTo: tc.upto, Method: tc.method}
			if c != want {
				t.Errorf("got %+v, want %+v", c, want)
			}
		})
	}
	if c := Period(mustOctal(t, "0.77"), mustValues(t, mustOctal(t, "0.77"), 167)); !c.Proven {
		t.Errorf("Kayles to 167: %+v", c)
	}
}

// Every certificate found for random games survives the brute-force check.
func TestPeriodCrossCheck(t *testing.T) {
	count, upto := 40, 400
	if testing.Short() {
		count, upto = 10, 200
	}
	proven := 0
	for _, g := range randomGames(t, count) {
		c := Period(g, mustValues(t, g, upto))
		if c.Proven {
			proven++
			if c.CheckedTo > upto {
				t.Errorf("%v: checked_to %d beyond %d", g, c.CheckedTo, upto)
			}
			crossCheck(t, g, c)
		} else if c.CheckedTo != upto {
			t.Errorf("%v: unproven with checked_to %d", g, c.CheckedTo)
		}
	}
	t.Logf("%d of %d games proven periodic", proven, 4*count)
}

// TestPeriodZFunction checks the Z-function search against the scan of
// its definition (periodScan) on every prefix of real value sequences,
// proven or not, and on sequences made to have a long preperiod and a
// period whose multiples match far back (the case the scan was slow on).
func TestPeriodZFunction(t *testing.T) {
	upto := 600
	if testing.Short() {
		upto = 300
	}
	games := randomGames(t, 10)
	for _, code := range []string{"0.376", "0.354", "0.6", "0.07", "4.7", "0.16"} {
		g, err := ParseOctal(code)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	s, err := NewSubtraction([]int{2, 5, 7})
	if err != nil {
		t.Fatal(err)
	}
	games = append(games, s)
	for _, g := range games {
		vs := mustValues(t, g, upto)
		for n := 1; n <= upto; n++ {
			if got, want := periodOf(g, vs[:n+1]), periodScan(g, vs[:n+1]); got != want {
				t.Fatalf("%v to %d: %+v, want %+v", g, n, got, want)
			}
		}
	}
	g, err := ParseOctal("0.376")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ pre, per, n int }{
		{0, 1, 50}, {0, 4, 100}, {37, 4, 100}, {37, 4, 200}, {300, 6, 1000}, {1, 12, 80}, {200, 30, 900},
	} {
		t.Run(fmt.Sprintf("%d+%d/%d", tc.pre, tc.per, tc.n), func(t *testing.T) {
			vs := make([]uint32, tc.n+1)
			for n := range vs {
				switch {
				case n >= tc.pre:
					vs[n] = uint32((n - tc.pre) % tc.per)
				case n%3 == 0:
					vs[n] = 7 // exceptions that some multiples of the period match
				default:
					vs[n] = uint32(n % tc.per)
				}
			}
			for n := 1; n <= tc.n; n++ {
				if got, want := periodOf(g, vs[:n+1]), periodScan(g, vs[:n+1]); got != want {
					t.Fatalf("to %d: %+v, want %+v", n, got, want)
				}
			}
		})
	}
}
