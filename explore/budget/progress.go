package budget

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress counts the steps of a long computation. Its methods are safe
// for concurrent use, and do nothing on a nil *Progress, so a computation
// calls them whether anyone watches or not.
type Progress struct {
	done, total atomic.Int64
	mu          sync.Mutex
	stage       string // what the whole run is at, kept across Start
	label       string
	start       time.Time
	scale       int64 // counts are in 1/scale of a unit, when > 1
}

// NewProgress returns a progress counter started now, with no total.
func NewProgress() *Progress {
	return &Progress{start: time.Now()}
}

// Start begins a new stage: label says what runs, total how many steps it
// has (0 when unknown). The done count and the clock start again.
func (p *Progress) Start(label string, total int64) {
	if p == nil {
		return
	}
	p.StartScaled(label, total, 1)
}

// StartScaled is Start with counts in 1/scale of a unit, for work done by
// parts (three sections, each half done: 1.5 of 3); the line shows units
// with one decimal.
func (p *Progress) StartScaled(label string, total, scale int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.label, p.start, p.scale = label, time.Now(), scale
	p.mu.Unlock()
	p.done.Store(0)
	p.total.Store(total)
}

// SetStage says where the whole run is (e.g. "section 2/5"): it prefixes
// the line and, unlike the label, stays when a computation calls Start.
func (p *Progress) SetStage(stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stage = stage
	p.mu.Unlock()
}

// SetLabel changes what the line says runs, keeping the counts.
func (p *Progress) SetLabel(label string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.label = label
	p.mu.Unlock()
}

// Add advances the done count by n.
func (p *Progress) Add(n int64) {
	if p != nil {
		p.done.Add(n)
	}
}

// Set sets the done count.
func (p *Progress) Set(done int64) {
	if p != nil {
		p.done.Store(done)
	}
}

// Snapshot is the state of a Progress at one moment.
type Snapshot struct {
	Label       string
	Done, Total int64
	Elapsed     time.Duration
	Scale       int64 // when > 1, Done and Total count 1/Scale of a unit
}

// Snapshot reads the counter.
func (p *Progress) Snapshot() Snapshot {
	if p == nil {
		return Snapshot{}
	}
	p.mu.Lock()
	label, start, scale := p.label, p.start, p.scale
	if p.stage != "" {
		label = strings.TrimSuffix(p.stage+": "+label, ": ")
	}
	p.mu.Unlock()
	return Snapshot{Label: label, Done: p.done.Load(), Total: p.total.Load(), Elapsed: time.Since(start), Scale: scale}
}

// Rate is the steps per second so far, 0 before any.
func (s Snapshot) Rate() float64 {
	if s.Elapsed <= 0 || s.Done <= 0 {
		return 0
	}
	return float64(s.Done) / s.Elapsed.Seconds()
}

// ETA is the time left at the rate so far; ok is false when it is unknown.
func (s Snapshot) ETA() (eta time.Duration, ok bool) {
	r := s.Rate()
	if s.Total <= 0 || r == 0 || s.Done > s.Total {
		return 0, false
	}
	return time.Duration(float64(s.Total-s.Done) / r * float64(time.Second)), true
}

// String renders the snapshot as one status line:
// "label: 1 234/5 000 (24%), 1.2k/s, ETA 0:03".
func (s Snapshot) String() string {
	var b strings.Builder
	if s.Label != "" {
		b.WriteString(s.Label)
		b.WriteString(": ")
	}
	scale := max(s.Scale, 1)
	switch {
	case scale > 1 && s.Total > 0:
		fmt.Fprintf(&b, "%.1f/%d (%d%%)", float64(s.Done)/float64(scale), s.Total/scale, s.Done*100/s.Total)
	case s.Total > 0:
		fmt.Fprintf(&b, "%d/%d (%d%%)", s.Done, s.Total, s.Done*100/s.Total)
	default:
		fmt.Fprintf(&b, "%d", s.Done/scale)
	}
	if r := s.Rate(); r > 0 {
		fmt.Fprintf(&b, ", %s/s", shortCount(r/float64(scale)))
	}
	if eta, ok := s.ETA(); ok {
		fmt.Fprintf(&b, ", ETA %s", clock(eta))
	}
	return b.String()
}

func shortCount(r float64) string {
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.1fG", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.1fk", r/1e3)
	case r >= 10:
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2f", r)
}

func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

type progressKey struct{}

// WithProgress returns a context that carries p to the computations run
// under it.
func WithProgress(ctx context.Context, p *Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// From returns the Progress carried by ctx, or nil.
func From(ctx context.Context) *Progress {
	if ctx == nil {
		return nil
	}
	p, _ := ctx.Value(progressKey{}).(*Progress)
	return p
}
