package kernel

import (
	"testing"
	"time"
)

// scriptClock is a clock the test owns: it stands still, and a sleep moves
// it on by the time asked, at once, then calls onSleep with the time slept
// so far (the test pushes a request "arriving" then). One goroutine only.
type scriptClock struct {
	now     time.Time
	slept   time.Duration
	onSleep func(slept time.Duration)
}

func (c *scriptClock) Now() time.Time { return c.now }

func (c *scriptClock) Sleep(d time.Duration) {
	c.now = c.now.Add(d)
	c.slept += d
	if c.onSleep != nil {
		c.onSleep(c.slept)
	}
}

var clockStart = time.Date(2026, 11, 24, 11, 37, 32, 0, time.UTC)

func cellRequest(date string) *message {
	return &message{header: header{MsgType: "execute_request", Date: date}}
}

// TestSettle: the wait for the end of a burst of requests returns once none
// has arrived for the quiet time, counting those that arrived meanwhile,
// and never waits past the limit, on the kernel's clock.
func TestSettle(t *testing.T) {
	const quiet, limit = abortQuiet, abortSettleMax
	tests := []struct {
		name      string
		before    int                            // requests pushed before the wait
		arrive    func(slept time.Duration) bool // a request arrives after this much waiting
		wantSeq   uint64
		wantSlept time.Duration
	}{
		{name: "nothing arrives", wantSeq: 0, wantSlept: quiet},
		{name: "arrived before the wait", before: 2, wantSeq: 2, wantSlept: quiet},
		{name: "two arrive during the wait", before: 1,
			arrive:  func(s time.Duration) bool { return s == 5*time.Millisecond || s == 12*time.Millisecond },
			wantSeq: 3, wantSlept: 12*time.Millisecond + quiet},
		{name: "one arrives just after the quiet time",
			arrive:  func(s time.Duration) bool { return s == quiet+time.Millisecond },
			wantSeq: 0, wantSlept: quiet},
		{name: "a stream that never pauses is cut at the limit",
			arrive:  func(s time.Duration) bool { return s%(10*time.Millisecond) == 0 },
			wantSeq: uint64(limit / (10 * time.Millisecond)), wantSlept: limit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &scriptClock{now: clockStart}
			q := newInbox(c)
			for range tc.before {
				q.push(cellRequest(""))
			}
			c.now = c.now.Add(time.Second) // the burst came a while ago
			if tc.arrive != nil {
				c.onSleep = func(s time.Duration) {
					if tc.arrive(s) {
						q.push(cellRequest(""))
					}
				}
			}
			if got := q.settle(quiet, limit); got != tc.wantSeq || c.slept != tc.wantSlept {
				t.Errorf("settle = %d after %v, want %d after %v", got, c.slept, tc.wantSeq, tc.wantSlept)
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		c := &scriptClock{now: clockStart}
		q := newInbox(c)
		q.push(cellRequest(""))
		q.close()
		if got := q.settle(quiet, limit); got != 1 || c.slept != 0 {
			t.Errorf("settle of a closed inbox = %d after %v, want 1 at once", got, c.slept)
		}
	})
}

// TestAbortQueued: after a failure, the requests that arrived while the
// kernel waited for the burst's end are aborted by their order of arrival;
// those that arrive later by their date, compared with the failing
// request's date plus the time the kernel held it, within the grace only.
func TestAbortQueued(t *testing.T) {
	c := &scriptClock{now: clockStart}
	k := &Kernel{clock: c, inbox: newInbox(c)}
	sent := "2026-11-24T11:37:32.668Z" // the browser's date, in whole ms
	failing := cellRequest(sent)
	k.inbox.push(failing)
	k.inbox.pop()
	c.now = c.now.Add(3 * time.Millisecond) // the cell ran 3 ms, then failed
	var queued *message
	c.onSleep = func(s time.Duration) {
		if s == 5*time.Millisecond { // Run All's next cell, 5 ms into the wait
			queued = cellRequest("2026-11-24T11:37:33.000Z")
			k.inbox.push(queued)
		}
	}
	k.abortQueued(failing)
	c.onSleep = nil
	if queued == nil {
		t.Fatalf("the kernel did not wait for the burst (slept %v)", c.slept)
	}
	// held 3 ms + 5 ms + the quiet time; the date is precise to 1 ms
	if want := time.Date(2026, 11, 24, 11, 37, 32, 668e6, time.UTC).Add(8*time.Millisecond + abortQuiet + time.Millisecond); !k.seenAfter.Equal(want) {
		t.Errorf("seen after %v, want %v", k.seenAfter, want)
	}
	if !k.aborted(queued) {
		t.Error("the request that arrived during the wait runs, want it aborted whatever its date")
	}
	tests := []struct {
		name    string
		date    string
		msgType string
		later   time.Duration // on the kernel's clock, after the failure
		want    bool
	}{
		{"sent with the failing cell, arriving later", sent, "execute_request", time.Second, true},
		{"sent before the client could see the error", "2026-11-24T11:37:32.696Z", "execute_request", 0, true},
		{"sent once the client could see the error", "2026-11-24T11:37:32.697Z", "execute_request", 0, false},
		{"sent with the failing cell, arriving past the grace", sent, "execute_request", abortGrace + time.Millisecond, false},
		{"at the end of the grace", sent, "execute_request", abortGrace, true},
		{"a date that does not parse", "yesterday", "execute_request", 0, false},
		{"not a cell", sent, "kernel_info_request", 0, false},
	}
	failedAt := c.now
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.now = failedAt.Add(tc.later)
			m := &message{header: header{MsgType: tc.msgType, Date: tc.date}}
			k.inbox.push(m) // after the wait: a number above abortUpTo
			k.inbox.pop()
			if got := k.aborted(m); got != tc.want {
				t.Errorf("aborted = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSeenAfter: the time before which the client cannot have seen a
// failure is on the client's clock, with the precision of its dates.
func TestSeenAfter(t *testing.T) {
	arrived := clockStart
	replied := arrived.Add(21 * time.Millisecond)
	for date, want := range map[string]string{
		"2026-11-24T11:37:32.668Z":       "2026-11-24T11:37:32.690Z",
		"2026-11-24T11:37:32.668123Z":    "2026-11-24T11:37:32.689124Z",
		"2026-11-24T11:37:32Z":           "2026-11-24T11:37:33.021Z",
		"2026-11-24T12:37:32.668+01:00":  "2026-11-24T11:37:32.690Z",
		"not a date":                     "",
		"2026-11-24T11:37:32.668123456Z": "2026-11-24T11:37:32.689123457Z",
	} {
		m := cellRequest(date)
		m.arrived = arrived
		got := seenAfter(m, replied)
		if want == "" {
			if !got.IsZero() {
				t.Errorf("%s: %v, want the zero time", date, got)
			}
			continue
		}
		if w, _ := time.Parse(time.RFC3339Nano, want); !got.Equal(w) {
			t.Errorf("%s: seen after %v, want %s", date, got.UTC(), want)
		}
	}
	if m := cellRequest("2026-11-24T11:37:32.668Z"); !seenAfter(m, replied).IsZero() {
		t.Error("a request with no time of arrival: want the zero time")
	}
}
