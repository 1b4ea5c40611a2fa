package cellgame

import "sync"

// Pool holds one solver per memory limit and memo file for the games of
// the runs in progress, so that the terms of a range (3 × 1 … 3 × 30)
// share one memo. Release forgets them, so that a long-lived process does
// not keep every memo it built. It is safe for concurrent use.
type Pool[S any] struct {
	// New builds the solver of a memory limit and memo file ("": none).
	New func(limit int64, file string) (S, error)
	// Keep ties a new solver to its memo file (Keep's functions).
	Keep func(s S, file string) (*Kept, error)

	mu sync.Mutex
	by map[poolKey]*Pooled[S]
}

type poolKey struct {
	limit int64
	file  string
}

// Pooled is a pool's solver and its memo file (nil without one).
type Pooled[S any] struct {
	Solver S
	File   *Kept
}

// Get returns the solver of limit and file, building it on first use
// (and loading its memo file, refused when it is another game's).
func (p *Pool[S]) Get(limit int64, file string) (*Pooled[S], error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := poolKey{limit, file}
	if kp := p.by[k]; kp != nil {
		return kp, nil
	}
	s, err := p.New(limit, file)
	if err != nil {
		return nil, err
	}
	kp := &Pooled[S]{Solver: s}
	if file != "" {
		if kp.File, err = p.Keep(s, file); err != nil {
			return nil, err
		}
	}
	if p.by == nil {
		p.by = map[poolKey]*Pooled[S]{}
	}
	p.by[k] = kp
	return kp, nil
}

// Lookup returns the solver of limit and file if the pool holds one.
func (p *Pool[S]) Lookup(limit int64, file string) (*Pooled[S], bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kp, ok := p.by[poolKey{limit, file}]
	return kp, ok
}

// Release forgets the pool's solvers: the games still open keep theirs
// (and save their memo files when they close); the next Get builds anew.
func (p *Pool[S]) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.by = nil
}
