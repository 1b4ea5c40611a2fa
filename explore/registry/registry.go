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
	_, values := r.sorted(cmp)
	return values
}

// Keys returns the keys in the order of Sorted(cmp).
func (r *Registry[T]) Keys(cmp func(a, b T) int) []string {
	keys, _ := r.sorted(cmp)
	return keys
}

// sorted returns the keys and values in the order of Sorted(cmp).
func (r *Registry[T]) sorted(cmp func(a, b T) int) ([]string, []T) {
	r.mu.RLock()
	keys := make([]string, 0, len(r.values))
	for k := range r.values {
		keys = append(keys, k)
	}
	values := make(map[string]T, len(keys))
	for _, k := range keys {
		values[k] = r.values[k]
	}
	r.mu.RUnlock()
	slices.SortFunc(keys, func(a, b string) int {
		if cmp != nil {
			if c := cmp(values[a], values[b]); c != 0 {
				return c
			}
		}
		return strings.Compare(a, b)
	})
	out := make([]T, len(keys))
	for i, k := range keys {
		out[i] = values[k]
	}
	return keys, out
}
