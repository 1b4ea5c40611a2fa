package game

import (
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/nimbook/nimbook/explore/budget"
)

// memo maps canonical positions to values. With one worker it is a plain
// map; with more it is split into shards, each behind its own lock, so
// that workers rarely wait for each other.
type memo[T comparable, V any] struct {
	seed   maphash.Seed
	mask   uint64 // shards-1; 0: one shard, no locking
	shards []memoShard[T, V]
	n      atomic.Int64
}

type memoShard[T comparable, V any] struct {
	mu sync.RWMutex
	m  map[T]V
	n  atomic.Int64 // entries, counted here so that workers do not share one counter
	_  [24]byte     // keeps two shards' locks off one cache line
}

func newMemo[T comparable, V any](workers int) *memo[T, V] {
	n := 1
	if workers > 1 {
		n = 64
	}
	m := &memo[T, V]{seed: maphash.MakeSeed(), mask: uint64(n - 1), shards: make([]memoShard[T, V], n)}
	for i := range m.shards {
		m.shards[i].m = make(map[T]V)
	}
	return m
}

func (m *memo[T, V]) get(k T) (V, bool) {
	if m.mask == 0 {
		v, ok := m.shards[0].m[k]
		return v, ok
	}
	return m.getHash(k, maphash.Comparable(m.seed, k))
}

// getHash is get with k's hash already computed.
func (m *memo[T, V]) getHash(k T, h uint64) (V, bool) {
	sh := &m.shards[h&m.mask]
	sh.mu.RLock()
	v, ok := sh.m[k]
	sh.mu.RUnlock()
	return v, ok
}

func (m *memo[T, V]) has(k T) bool {
	_, ok := m.get(k)
	return ok
}

// put stores v for k unless k is there already (another worker solved it
// first, with the same value); it reports whether k is new.
func (m *memo[T, V]) put(k T, v V) bool {
	if m.mask == 0 {
		sh := &m.shards[0]
		if _, ok := sh.m[k]; ok {
			return false
		}
		sh.m[k] = v
		m.n.Add(1)
		return true
	}
	sh := &m.shards[maphash.Comparable(m.seed, k)&m.mask]
	sh.mu.Lock()
	_, ok := sh.m[k]
	if !ok {
		sh.m[k] = v
	}
	if !ok {
		sh.n.Add(1)
	}
	sh.mu.Unlock()
	return !ok
}

func (m *memo[T, V]) len() int64 {
	if m.mask == 0 {
		return m.n.Load()
	}
	var n int64
	for i := range m.shards {
		n += m.shards[i].n.Load()
	}
	return n
}

// search is the state one call of the solver shares between its workers.
type search struct {
	start time.Time
	stop  atomic.Bool // set by the first error, or when the answer is known
	once  sync.Once
	err   error
}

func (r *search) fail(err error) {
	r.once.Do(func() { r.err = err })
	r.stop.Store(true)
}

// frame is a position being solved: its options' keys (one per option,
// or, with a Splitter, the keys of each option's parts, option i ending
// at ends[i]), and how many of them the worker has looked at.
type frame[T comparable] struct {
	key   T
	keys  []T
	ends  []int32
	vals  int // the values of keys, as they become known, are w.vals[vals:vals+len(keys)]
	next  int
	cur   int   // the index in keys of the option being solved deeper on the stack
	start int   // the worker looks at keys from here on, cyclically
	size  int64 // bytes held while the frame is on the stack
}

// worker is one goroutine's depth-first search. Workers other than the
// first look at options in a rotated order of their own, so that they
// spread over different subtrees and meet mostly in the shared memo.
type worker[T comparable] struct {
	s       *Solver[T]
	id      int
	rng     uint64
	stack   []frame[T]
	onStack map[T]int
	held    int64
	mex     mexSet
	ticks   int
	listed  int
	depth   atomic.Int64
	lastRep time.Time
	done    <-chan struct{}
	// With several workers, each counts its steps, expansions and memo
	// bytes here and adds them to the solver's shared counters by the
	// hundred (flush), so that the workers do not contend for them.
	pendSteps, pendPositions, pendBytes int64
	pushes                              int
	// vals holds the values of the options of the frames on the stack,
	// frame after frame.
	vals  []node
	cache []cacheSlot[T]
}

// flushEvery is how many steps a worker of several counts before it adds
// them to the solver's counters: the step and memory limits may be passed
// by that much per worker.
const flushEvery = 256

// step counts n steps against the step budget.
func (w *worker[T]) step(n int64) error {
	s := w.s
	if s.opts.Workers == 1 {
		return s.step(n)
	}
	w.pendSteps += n
	if w.pendSteps < flushEvery {
		return nil
	}
	w.flush()
	return s.step(0)
}

// flush adds the worker's pending counts to the solver's.
func (w *worker[T]) flush() {
	s := w.s
	if w.pendSteps != 0 {
		s.steps.Add(w.pendSteps)
	}
	if w.pendPositions != 0 {
		s.positions.Add(w.pendPositions)
	}
	if w.pendBytes != 0 {
		s.bytes.Add(w.pendBytes)
	}
	w.pendSteps, w.pendPositions, w.pendBytes = 0, 0, 0
}

func (s *Solver[T]) worker(i int) *worker[T] {
	for len(s.workers) <= i {
		id := len(s.workers)
		s.workers = append(s.workers, &worker[T]{s: s, id: id, rng: 0x9e3779b97f4a7c15 * uint64(id+1), onStack: make(map[T]int)})
	}
	return s.workers[i]
}

// canonical returns the memo key of p, counting the call of Canonical.
func (s *Solver[T]) canonical(p T) (T, error) {
	var calls int64
	k, err := s.canonicalN(p, &calls)
	if err == nil {
		err = s.step(calls)
	}
	return k, err
}

// parts appends to keys the memo keys of p's parts (p itself when the
// mover is not a Splitter), counting the calls.
func (s *Solver[T]) parts(p T, keys []T) ([]T, error) {
	var calls int64
	keys, err := s.partsN(p, keys, &calls)
	if err == nil {
		err = s.step(calls)
	}
	return keys, err
}

// canonicalN is canonical adding its calls to *calls, for the caller to
// count at once.
func (s *Solver[T]) canonicalN(p T, calls *int64) (T, error) {
	if s.canon == nil {
		return p, nil
	}
	*calls++
	k, err := s.canon.Canonical(p)
	if err != nil {
		return p, fmt.Errorf("game: canonical form of %v: %w", p, err)
	}
	return k, nil
}

// partsN is parts adding its calls to *calls.
func (s *Solver[T]) partsN(p T, keys []T, calls *int64) ([]T, error) {
	if s.split == nil {
		k, err := s.canonicalN(p, calls)
		return append(keys, k), err
	}
	*calls++
	cs, err := s.split.Components(p)
	if err != nil {
		return keys, fmt.Errorf("game: components of %v: %w", p, err)
	}
	for _, c := range cs {
		k, err := s.canonicalN(c, calls)
		if err != nil {
			return keys, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// step counts n steps against Options.MaxSteps.
func (s *Solver[T]) step(n int64) error {
	if v := s.steps.Add(n); s.opts.MaxSteps > 0 && v > s.opts.MaxSteps {
		return fmt.Errorf("game: more than the step limit of %d (calls of the move function and positions expanded): %w (raise it with --max-steps or limits.steps in the job file)", s.opts.MaxSteps, ErrTooManySteps)
	}
	return nil
}

// solve fills the memo (the misère one when misere) for every key in
// roots and every position reachable from them.
func (s *Solver[T]) solve(roots []T, misere bool) error {
	known := true
	for _, k := range roots {
		if !s.known(k, misere) {
			known = false
			break
		}
	}
	if known {
		return nil
	}
	r := &search{start: s.now()}
	s.run = r
	defer func() { s.run, s.lastElapsed = nil, s.now().Sub(r.start) }()
	var done <-chan struct{}
	if s.opts.Context != nil {
		done = s.opts.Context.Done()
	}
	nw := s.opts.Workers
	var wg sync.WaitGroup
	for i := 1; i < nw; i++ {
		w := s.worker(i)
		w.done = done
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					r.fail(fmt.Errorf("game: worker %d: %v", w.id, v))
				}
			}()
			if err := w.solveAll(roots, misere, r); err != nil {
				r.fail(err)
			}
		}()
	}
	// Should the move function panic on this goroutine, the others stop
	// too.
	defer r.stop.Store(true)
	w := s.worker(0)
	w.done = done
	w.lastRep = r.start
	err := w.solveAll(roots, misere, r)
	if err != nil {
		r.fail(err)
	} else {
		r.stop.Store(true) // the others stop where they are
	}
	wg.Wait()
	return r.err
}

// lookup returns the value of k, if known.
func (s *Solver[T]) lookup(k T, misere bool) (node, bool) {
	if misere {
		return s.misere.get(k)
	}
	g, ok := s.grundy.get(k)
	return node{grundy: g}, ok
}

func (s *Solver[T]) known(k T, misere bool) bool {
	if misere {
		return s.misere.has(k)
	}
	return s.grundy.has(k)
}

// cacheSize is the number of slots of a worker's cache, with several
// workers.
const cacheSize = 1 << 15

// cacheSlot is a value a worker has seen, kept so that looking it up again
// takes no lock.
type cacheSlot[T comparable] struct {
	key    T
	val    node
	ok     bool
	misere bool
}

// lookup is Solver.lookup through the worker's cache: with several
// workers the memo's locks cost more than a look in the cache, which
// holds most of the small parts met again and again.
func (w *worker[T]) lookup(k T, misere bool) (node, bool) {
	s := w.s
	if s.opts.Workers == 1 {
		return s.lookup(k, misere)
	}
	if w.cache == nil {
		w.cache = make([]cacheSlot[T], cacheSize)
	}
	h := maphash.Comparable(s.grundy.seed, k)
	slot := &w.cache[h&(cacheSize-1)]
	if slot.ok && slot.misere == misere && slot.key == k {
		return slot.val, true
	}
	var v node
	var ok bool
	if misere {
		v, ok = s.misere.get(k)
	} else {
		var g uint64
		g, ok = s.grundy.getHash(k, h)
		v = node{grundy: g}
	}
	if ok {
		*slot = cacheSlot[T]{key: k, val: v, ok: true, misere: misere}
	}
	return v, ok
}

// cacheBytes is the memory of a worker's cache.
func (w *worker[T]) cacheBytes() int64 {
	return int64(cap(w.cache)) * int64(unsafe.Sizeof(cacheSlot[T]{}))
}

// errStopped ends a worker that another worker's error or answer made
// useless; solve returns the search's own error instead.
var errStopped = errors.New("game: stopped")

// solveAll solves every root, starting from a root of its own when there
// are several and several workers.
func (w *worker[T]) solveAll(roots []T, misere bool, r *search) error {
	defer w.reset()
	defer w.flush()
	n := len(roots)
	off := 0
	if w.id > 0 && n > 1 {
		off = w.id * n / w.s.opts.Workers
	}
	for i := range n {
		k := roots[(off+i)%n]
		if err := w.solveKey(k, misere, r); err != nil {
			if err == errStopped {
				if w.id == 0 {
					return r.err
				}
				return nil
			}
			return err
		}
	}
	return nil
}

// reset empties the stack after a search, finished or not, so that the
// next one starts clean.
func (w *worker[T]) reset() {
	clear(w.onStack)
	w.vals = w.vals[:0]
	clear(w.stack)
	w.stack = w.stack[:0]
	w.held = 0
	w.depth.Store(0)
}

// progressPace is the least time between two calls of Options.Progress.
const progressPace = 250 * time.Millisecond

// tick is called once per step of the search: it stops the worker when
// the context is done or another worker failed, and reports progress.
func (w *worker[T]) tick(r *search) error {
	if r.stop.Load() {
		return errStopped
	}
	select {
	case <-w.done:
		return fmt.Errorf("game: %w", budget.Err(w.s.opts.Context))
	default:
	}
	if w.ticks++; w.ticks&63 == 0 && w.id == 0 && w.s.opts.Progress != nil {
		if now := w.s.now(); now.Sub(w.lastRep) >= progressPace {
			w.lastRep = now
			w.s.opts.Progress(w.s.Stats())
		}
	}
	return nil
}

func (w *worker[T]) solveKey(root T, misere bool, r *search) error {
	s := w.s
	if s.known(root, misere) {
		return nil
	}
	if err := w.push(root, misere); err != nil {
		return err
	}
	for len(w.stack) > 0 {
		if err := w.tick(r); err != nil {
			return err
		}
		top := &w.stack[len(w.stack)-1]
		if n := len(top.keys); top.next < n {
			i := top.start + top.next
			if i >= n {
				i -= n
			}
			q := top.keys[i]
			top.next++
			if v, ok := w.lookup(q, misere); ok {
				w.vals[top.vals+i] = v
				continue
			}
			top.cur = i
			if j, ok := w.onStack[q]; ok {
				cyc := make([]T, 0, len(w.stack)-j)
				for _, f := range w.stack[j:] {
					cyc = append(cyc, f.key)
				}
				return &CycleError[T]{Cycle: cyc}
			}
			if err := w.push(q, misere); err != nil {
				return err
			}
			continue
		}
		v := w.finish(top, misere)
		if d := len(w.stack); d > 1 {
			parent := &w.stack[d-2]
			w.vals[parent.vals+parent.cur] = v
		}
		delete(w.onStack, top.key)
		w.vals = w.vals[:top.vals]
		w.held -= top.size
		w.stack[len(w.stack)-1] = frame[T]{}
		w.stack = w.stack[:len(w.stack)-1]
		w.depth.Store(int64(len(w.stack)))
	}
	return nil
}

// push lists the options of q and puts q on the stack.
func (w *worker[T]) push(q T, misere bool) error {
	s := w.s
	if s.opts.Context != nil && w.listed >= 1024 {
		// Listings of thousands of options allocate megabytes between two
		// samples of the watchdog on a busy machine: sample here too.
		w.listed = 0
		if err := budget.Check(s.opts.Context); err != nil {
			return fmt.Errorf("game: %w", err)
		}
	}
	// With several workers the memo's size is the sum of its shards':
	// it is looked at every 64 expansions.
	if w.pushes++; s.opts.Workers == 1 || w.pushes&63 == 0 {
		if int(s.grundy.len()+s.misere.len())+len(w.stack) >= s.opts.MaxPositions {
			return fmt.Errorf("game: more than %d positions: %w (raise it with --max-positions or limits.positions in the job file)", s.opts.MaxPositions, ErrTooManyPositions)
		}
	}
	if err := w.step(2); err != nil { // the expansion and the call of Moves
		return err
	}
	if s.opts.Workers == 1 {
		s.positions.Add(1)
	} else {
		w.pendPositions++
	}
	ms, err := s.mover.Moves(q)
	if err != nil {
		return fmt.Errorf("game: moves of %v: %w", q, err)
	}
	f := frame[T]{key: q}
	// The calls of Components and Canonical are counted once for all the
	// options, which is cheaper than one by one.
	var calls int64
	switch {
	case !misere && s.split != nil:
		f.keys = make([]T, 0, len(ms))
		f.ends = make([]int32, len(ms))
		for i, o := range ms {
			if f.keys, err = s.partsN(o, f.keys, &calls); err != nil {
				return err
			}
			f.ends[i] = int32(len(f.keys))
		}
	case s.canon != nil:
		f.keys = make([]T, len(ms))
		for i, o := range ms {
			if f.keys[i], err = s.canonicalN(o, &calls); err != nil {
				return err
			}
		}
	default:
		f.keys = ms
	}
	if err := w.step(calls); err != nil {
		return err
	}
	// The frames' values are one stack beside the frames': no
	// allocation per position.
	f.vals = len(w.vals)
	w.vals = append(w.vals, make([]node, len(f.keys))...)
	size := sizeOf(q) + entryBytes(q) + int64(unsafe.Sizeof(f)) + 4*int64(len(f.ends)) + int64(unsafe.Sizeof(node{}))*int64(len(f.keys))
	if isString[T]() {
		for _, k := range f.keys {
			size += sizeOf(k)
		}
	} else {
		size += int64(len(f.keys)) * sizeOf(q)
	}
	if need := s.bytes.Load() + w.pendBytes + w.held + w.cacheBytes() + size; s.opts.MaxMemory > 0 && need > s.opts.MaxMemory {
		err := budget.Exceeds(fmt.Sprintf("solving more than %d positions", int(s.grundy.len()+s.misere.len())+len(w.stack)), need, s.opts.MaxMemory)
		return fmt.Errorf("game: %w (raise it with --max-memory or limits.memory)", err)
	}
	f.size = size
	w.held += size
	w.listed += len(ms) + 1
	if w.id > 0 && len(f.keys) > 1 {
		w.rng ^= w.rng << 13
		w.rng ^= w.rng >> 7
		w.rng ^= w.rng << 17
		f.start = int(w.rng % uint64(len(f.keys)))
	}
	w.onStack[q] = len(w.stack)
	w.stack = append(w.stack, f)
	w.depth.Store(int64(len(w.stack)))
	return nil
}

func (w *worker[T]) addBytes(n int64) {
	if w.s.opts.Workers == 1 {
		w.s.bytes.Add(n)
		return
	}
	w.pendBytes += n
}

// finish stores the value of the frame's position, all of whose options
// are solved, and returns it.
func (w *worker[T]) finish(f *frame[T], misere bool) node {
	s := w.s
	w.mex.reset()
	if misere {
		isP := len(f.keys) > 0 // terminal: the player to move wins under misère
		for _, v := range w.vals[f.vals:] {
			w.mex.add(v.grundy)
			if v.misereP {
				isP = false
			}
		}
		v := node{grundy: w.mex.mex(), misereP: isP}
		if s.misere.put(f.key, v) {
			w.addBytes(entryBytes(f.key))
		}
		return v
	}
	if f.ends == nil {
		for _, v := range w.vals[f.vals:] {
			w.mex.add(v.grundy)
		}
	} else {
		prev := int32(0)
		for _, e := range f.ends {
			var x uint64
			for _, v := range w.vals[f.vals+int(prev) : f.vals+int(e)] {
				x ^= v.grundy
			}
			w.mex.add(x)
			prev = e
		}
	}
	v := node{grundy: w.mex.mex()}
	if s.grundy.put(f.key, v.grundy) {
		w.addBytes(entryBytes(f.key))
	}
	return v
}
