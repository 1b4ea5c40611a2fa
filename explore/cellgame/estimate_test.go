package cellgame

import (
	"errors"
	"testing"
)

// TestExtrapolate: a memo that triples with each column is sampled until
// it passes the sample and carried on geometrically; a narrow board is
// solved whole; an error of the solve stops it.
func TestExtrapolate(t *testing.T) {
	triple := func(k int) (int64, error) {
		e := int64(1)
		for range k {
			e *= 3
		}
		return e, nil
	}
	for _, tc := range []struct {
		name      string
		n         int
		sample    int64
		entries   int64
		sampledTo int
	}{
		{"solved whole", 4, 1000, 81, 4},
		{"carried on", 10, 100, 59049, 5},
		{"one column", 1, 0, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est, err := Extrapolate(tc.n, tc.sample, triple)
			if err != nil {
				t.Fatal(err)
			}
			if est.Entries != tc.entries || est.Sampled != tc.sampledTo || est.Bytes != tc.entries*EntryBytes {
				t.Errorf("%+v, want %d entries sampled to width %d", est, tc.entries, tc.sampledTo)
			}
		})
	}
	boom := errors.New("boom")
	if _, err := Extrapolate(5, 100, func(int) (int64, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want the solve's", err)
	}
}
