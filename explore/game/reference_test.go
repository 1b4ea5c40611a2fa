package game

// This file keeps the generic solver as it was before components, canonical
// forms and workers (commit 860d9ad): a plain memoised mex over whole
// positions. The tests check the new solver against it on every small
// position, and the benchmarks measure the new one against it.

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/nimbook/nimbook/explore/budget"
)

// refEntryBytes is entryBytes of the old solver.
func refEntryBytes[T comparable](p T) int64 {
	return 2 * (sizeOf(p) + int64(unsafe.Sizeof(refNode{})) + 8)
}

type refNode struct {
	grundy  uint64
	misereP bool
}

// refSolver is the old Solver: it remembers every whole position it has
// solved.
type refSolver[T comparable] struct {
	mover Mover[T]
	opts  Options
	memo  map[T]refNode
	// bytes estimates the memory held by memo, for Options.MaxMemory.
	bytes int64
}

// newRefSolver is the old NewSolver.
func newRefSolver[T comparable](m Mover[T], opts Options) (*refSolver[T], error) {
	if m == nil {
		return nil, errors.New("game: nil move function")
	}
	if opts.MaxPositions < 0 {
		return nil, fmt.Errorf("game: negative position budget %d", opts.MaxPositions)
	}
	if opts.MaxPositions == 0 {
		opts.MaxPositions = DefaultMaxPositions
	}
	if opts.Play != Normal && opts.Play != Misere {
		return nil, fmt.Errorf("game: unknown play %d", int(opts.Play))
	}
	return &refSolver[T]{mover: m, opts: opts, memo: make(map[T]refNode)}, nil
}

type refFrame[T comparable] struct {
	pos   T
	moves []T
	next  int
}

// solve fills the memo for p and every position reachable from it, with an
// explicit stack so that depth is bounded only by memory.
func (s *refSolver[T]) solve(p T) (refNode, error) {
	if n, ok := s.memo[p]; ok {
		return n, nil
	}
	onStack := make(map[T]int) // position → index in stack
	var stack []refFrame[T]
	var held int64 // bytes of the stack: frames, their options, onStack
	listed := 0    // options listed since the memory was last sampled
	push := func(q T) error {
		// Listing the moves of a position of big heaps allocates
		// thousands of positions: the context (and the memory watchdog
		// behind it) is looked at before each listing, not only every
		// 1024 steps (a misère position of six heaps up to 1000 ran past
		// SIGTERM and its memory limit).
		if s.opts.Context != nil {
			if err := budget.Err(s.opts.Context); err != nil {
				return fmt.Errorf("game: %w", err)
			}
		}
		if len(s.memo)+len(stack) >= s.opts.MaxPositions {
			return fmt.Errorf("game: more than %d positions: %w (raise it with --max-positions or limits.positions in the job file)", s.opts.MaxPositions, ErrTooManyPositions)
		}
		ms, err := s.mover.Moves(q)
		if err != nil {
			return fmt.Errorf("game: moves of %v: %w", q, err)
		}
		size := sizeOf(q)
		for _, m := range ms {
			size += sizeOf(m)
		}
		size += refEntryBytes(q) + int64(unsafe.Sizeof(refFrame[T]{}))
		if need := s.bytes + held + size; s.opts.MaxMemory > 0 && need > s.opts.MaxMemory {
			err := budget.Exceeds(fmt.Sprintf("solving more than %d positions", len(s.memo)+len(stack)), need, s.opts.MaxMemory)
			return fmt.Errorf("game: %w (raise it with --max-memory or limits.memory)", err)
		}
		held += size
		// The watchdog samples every millisecond or so, much later on a
		// busy machine, while listings of thousands of options allocate
		// megabytes in that time: the memory is sampled here too, every
		// few thousand options listed (a misère position of six heaps went
		// past its limit of 256 MiB at load 10).
		if listed += len(ms) + 1; listed >= 4096 && s.opts.Context != nil {
			listed = 0
			if err := budget.Check(s.opts.Context); err != nil {
				return fmt.Errorf("game: %w", err)
			}
		}
		onStack[q] = len(stack)
		stack = append(stack, refFrame[T]{pos: q, moves: ms})
		return nil
	}
	if err := push(p); err != nil {
		return refNode{}, err
	}
	steps := 0
	for len(stack) > 0 {
		steps++
		if s.opts.Context != nil && steps&1023 == 0 {
			if err := budget.Err(s.opts.Context); err != nil {
				return refNode{}, fmt.Errorf("game: %w", err)
			}
		}
		top := &stack[len(stack)-1]
		if top.next < len(top.moves) {
			q := top.moves[top.next]
			top.next++
			if _, ok := s.memo[q]; ok {
				continue
			}
			if i, ok := onStack[q]; ok {
				cyc := make([]T, 0, len(stack)-i)
				for _, f := range stack[i:] {
					cyc = append(cyc, f.pos)
				}
				return refNode{}, &CycleError[T]{Cycle: cyc}
			}
			if err := push(q); err != nil {
				return refNode{}, err
			}
			continue
		}
		// Every option is solved: take the mex and the misère outcome.
		s.memo[top.pos] = s.combine(top.moves)
		size := sizeOf(top.pos) + refEntryBytes(top.pos) + int64(unsafe.Sizeof(refFrame[T]{}))
		for _, m := range top.moves {
			size += sizeOf(m)
		}
		held -= size
		s.bytes += refEntryBytes(top.pos)
		delete(onStack, top.pos)
		stack = stack[:len(stack)-1]
	}
	return s.memo[p], nil
}

func (s *refSolver[T]) combine(moves []T) refNode {
	var seen mexSet
	misereP := len(moves) > 0 // terminal: the player to move wins under misère
	for _, q := range moves {
		n := s.memo[q]
		seen.add(n.grundy)
		if n.misereP {
			misereP = false
		}
	}
	return refNode{grundy: seen.mex(), misereP: misereP}
}

// Grundy returns the normal-play Grundy value of p.
func (s *refSolver[T]) Grundy(p T) (uint64, error) {
	n, err := s.solve(p)
	return n.grundy, err
}

// Outcome returns P or N for p under the solver's play.
func (s *refSolver[T]) Outcome(p T) (Outcome, error) {
	n, err := s.solve(p)
	if err != nil {
		return N, err
	}
	return s.outcome(n), nil
}

func (s *refSolver[T]) outcome(n refNode) Outcome {
	isP := n.grundy == 0
	if s.opts.Play == Misere {
		isP = n.misereP
	}
	if isP {
		return P
	}
	return N
}
