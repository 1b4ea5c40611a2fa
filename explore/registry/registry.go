package registry

import (
	"slices"
	"strings"
	"sync"
)

// Registry holds values of type T by key. The zero Registry is empty and
// ready to use.
type Registry[T any] struct {
	mu     sync.RWMutex
	values map[string]T
}

// Add registers v under key. It reports false, and keeps the value
// registered first, when key is taken.
func (r *Registry[T]) Add(key string, v T) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.values[key]; dup {
		return false
	}
	if r.values == nil {
		r.values = map[string]T{}
	}
	r.values[key] = v
	return true
}

// Lookup returns the value registered under key.
func (r *Registry[T]) Lookup(key string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.values[key]
	return v, ok
}

// Sorted returns the values ordered by cmp, then by key (cmp may be nil),
// so that lists shown to users never follow a map's order.
func (r *Registry[T]) Sorted(cmp func(a, b T) int) []T {
	es := r.entries(cmp)
	out := make([]T, len(es))
	for i, e := range es {
		out[i] = e.v
	}
	return out
}

// Keys returns the keys in the order of Sorted(cmp).
func (r *Registry[T]) Keys(cmp func(a, b T) int) []string {
	es := r.entries(cmp)
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.k
	}
	return out
}

type entry[T any] struct {
	k string
	v T
}

func (r *Registry[T]) entries(cmp func(a, b T) int) []entry[T] {
	r.mu.RLock()
	es := make([]entry[T], 0, len(r.values))
	for k, v := range r.values {
		es = append(es, entry[T]{k, v})
	}
	r.mu.RUnlock()
	slices.SortFunc(es, func(a, b entry[T]) int {
		if cmp != nil {
			if c := cmp(a.v, b.v); c != 0 {
				return c
			}
		}
		return strings.Compare(a.k, b.k)
	})
	return es
}
