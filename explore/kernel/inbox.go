package kernel

import (
	"sync"
	"time"
)

// The inbox holds the shell requests received and not yet handled. It is
// bounded so that a client sending faster than cells run cannot fill the
// memory: when full, the kernel stops reading the shell socket.
const (
	inboxMaxMessages = 1000     // as libzmq's default receive high-water mark
	inboxMaxBytes    = 64 << 20 // one larger message is still taken alone
)

type inbox struct {
	mu       sync.Mutex
	cond     *sync.Cond
	queue    []*message
	sizes    []int64
	bytes    int64
	seq      uint64    // messages pushed so far
	last     time.Time // when the last one was pushed
	isClosed bool
	clock    clock // stamps arrivals and paces settle
}

func newInbox(c clock) *inbox {
	q := &inbox{clock: c}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func messageSize(m *message) int64 {
	n := len(m.rawHeader) + len(m.parent) + len(m.metadata) + len(m.content)
	for _, b := range m.identities {
		n += len(b)
	}
	for _, b := range m.buffers {
		n += len(b)
	}
	return int64(n)
}

// push appends m, numbering it, once there is room; false when closed.
func (q *inbox) push(m *message) bool {
	size := messageSize(m)
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.isClosed && len(q.queue) > 0 && (len(q.queue) >= inboxMaxMessages || q.bytes+size > inboxMaxBytes) {
		q.cond.Wait()
	}
	if q.isClosed {
		return false
	}
	q.seq++
	m.seq = q.seq
	m.arrived = q.clock.Now()
	q.last = m.arrived
	q.queue = append(q.queue, m)
	q.sizes = append(q.sizes, size)
	q.bytes += size
	q.cond.Broadcast()
	return true
}

// pop removes the oldest message, waiting for one; nil when closed.
func (q *inbox) pop() *message {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.isClosed && len(q.queue) == 0 {
		q.cond.Wait()
	}
	if q.isClosed {
		return nil
	}
	m := q.queue[0]
	q.queue[0] = nil
	q.queue = q.queue[1:]
	q.bytes -= q.sizes[0]
	q.sizes = q.sizes[1:]
	q.cond.Broadcast()
	return m
}

// settle waits until no message has arrived for quiet, or until limit has
// passed, and returns the number of messages pushed by then.
func (q *inbox) settle(quiet, limit time.Duration) uint64 {
	start := q.clock.Now()
	for {
		q.mu.Lock()
		seq, last, closed := q.seq, q.last, q.isClosed
		q.mu.Unlock()
		now := q.clock.Now()
		idle := now.Sub(start)
		if last.After(start) {
			idle = now.Sub(last)
		}
		if closed || idle >= quiet || now.Sub(start) >= limit {
			return seq
		}
		q.clock.Sleep(min(quiet-idle, time.Millisecond))
	}
}

func (q *inbox) close() {
	q.mu.Lock()
	q.isClosed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}
