package kernel

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// A long cell's progress is one display, updated in place: it appears once
// the cell has run for progressDelay with a computation reporting progress
// (budget.From), is redrawn every progressEvery, and is emptied when the
// cell ends, so that a saved notebook keeps no stale progress.
var (
	progressDelay = time.Second
	progressEvery = 500 * time.Millisecond
)

// watchProgress returns the cell's context carrying a budget.Progress, and
// the function that stops showing it.
func (k *Kernel) watchProgress(ctx context.Context, m *message, n int, silent bool) (context.Context, func()) {
	p := budget.NewProgress()
	ctx = budget.WithProgress(ctx, p)
	if silent {
		return ctx, func() {}
	}
	id := fmt.Sprintf("nimbook-progress-%s-%d", k.session, n)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		shown, last := false, ""
		show := func(text string) {
			typ := "update_display_data"
			if !shown {
				typ, shown = "display_data", true
			}
			k.publish(m, typ, map[string]any{
				"data":      map[string]any{"text/plain": text},
				"metadata":  map[string]any{},
				"transient": map[string]any{"display_id": id},
			})
			last = text
		}
		wait := time.NewTimer(progressDelay)
		defer wait.Stop()
		select {
		case <-done:
			return
		case <-wait.C:
		}
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			s := p.Snapshot()
			if text := s.String(); (s.Done > 0 || s.Total > 0) && text != last {
				show(text)
			}
			select {
			case <-done:
				if shown {
					show("")
				}
				return
			case <-t.C:
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
