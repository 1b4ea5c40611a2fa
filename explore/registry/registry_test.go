package registry

import (
	"cmp"
	"slices"
	"sync"
	"testing"
)

type item struct {
	order int
	name  string
}

func byOrder(a, b item) int { return cmp.Compare(a.order, b.order) }

func TestRegistry(t *testing.T) {
	var r Registry[item]
	if _, ok := r.Lookup("x"); ok {
		t.Fatal("the zero registry found x")
	}
	for _, it := range []item{{2, "b"}, {1, "z"}, {2, "a"}, {0, "m"}} {
		if !r.Add(it.name, it) {
			t.Fatalf("Add(%q) refused a new key", it.name)
		}
	}
	if r.Add("a", item{9, "a"}) {
		t.Error("Add took a key twice")
	}
	if got, ok := r.Lookup("a"); !ok || got.order != 2 {
		t.Errorf("Lookup(a) = %v, %v; want the first registration", got, ok)
	}
	tests := []struct {
		name string
		cmp  func(a, b item) int
		want []string
	}{
		{"by key", nil, []string{"a", "b", "m", "z"}},
		{"by order then key", byOrder, []string{"m", "z", "a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Keys(tt.cmp); !slices.Equal(got, tt.want) {
				t.Errorf("Keys = %v, want %v", got, tt.want)
			}
			var names []string
			for _, it := range r.Sorted(tt.cmp) {
				names = append(names, it.name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("Sorted = %v, want %v", names, tt.want)
			}
		})
	}
}

// TestRegistryConcurrent registers and reads from many goroutines (run
// with -race): one Add of each key wins.
func TestRegistryConcurrent(t *testing.T) {
	var r Registry[int]
	var wg sync.WaitGroup
	wins := make([]int, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 100 {
				if r.Add(string(rune('A'+k%26))+string(rune('a'+k/26)), g) {
					wins[g]++
				}
				r.Lookup("Aa")
				r.Sorted(nil)
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, w := range wins {
		total += w
	}
	if total != 100 || len(r.Keys(nil)) != 100 {
		t.Errorf("%d wins, %d keys; want 100 of each", total, len(r.Keys(nil)))
	}
}
