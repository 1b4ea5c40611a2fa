package job

import (
	"sync"

	"github.com/nimbook/nimbook/explore/family"
)

// runs counts the runs in progress and holds of the process.
var runs struct {
	sync.Mutex
	n int
}

// Hold keeps what families share between the games of runs (a memo that
// a range's terms, or a survey's variants, reuse) until the function it
// returns is called; Run holds for its own length. When the last hold
// ends, every family's Release drops what it kept, so that a long-lived
// process (the kernel, a survey) does not keep every memo it ever built.
// The function may be called more than once.
func Hold() (release func()) {
	runs.Lock()
	runs.n++
	runs.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			runs.Lock()
			runs.n--
			last := runs.n == 0
			runs.Unlock()
			if !last {
				return
			}
			for _, f := range family.Families() {
				if f.Release != nil {
					f.Release()
				}
			}
		})
	}
}
