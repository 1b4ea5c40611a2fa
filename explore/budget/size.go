package budget

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrBadSize is wrapped by ParseSize's errors.
var ErrBadSize = errors.New("budget: bad size")

var units = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}

// ParseSize reads a positive byte size such as 4GiB, 512MiB, 100MB, 2G
// (binary, as in Slurm's --mem) or 1048576.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/mult {
		return 0, fmt.Errorf("%w %q: write a size like 512MiB or 4GiB", ErrBadSize, s)
	}
	return v * mult, nil
}

// FormatSize writes n bytes with a binary unit and at most one decimal:
// 512 B, 1.5 KiB, 256 MiB, 4 GiB.
func FormatSize(n int64) string {
	if n < 1<<10 && n > -(1<<10) {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		f /= 1024
		if math.Abs(f) < 1024 || u == "PiB" {
			s := strconv.FormatFloat(f, 'f', 1, 64)
			s = strings.TrimSuffix(s, ".0")
			return s + " " + u
		}
	}
	panic("unreachable")
}

// Reserve is what the program holds besides the work it is asked for: the
// Go runtime, templates, fonts and the parsed input (nimbook run of a small
// job holds 7.2–7.4 MiB), and its code resident in memory (9–14 MiB; see
// CodeResident). The watchdog measures the whole process, so an estimate
// is checked against the limit less this reserve: work admitted by its
// estimate is not stopped for what the estimate leaves out, and the
// resident set size stays under the limit.
const Reserve = 24 << 20

// held counts what Hold was told the program keeps while later work runs.
var held atomic.Int64

// Hold counts n bytes that the program keeps while later work runs (the
// results of a job's finished sections, to be rendered at the end): until
// release is called, estimates are checked against the limit less Reserve
// and what is held. The count is the process's, as the watchdog's is.
func Hold(n int64) (release func()) {
	n = max(n, 0)
	held.Add(n)
	var once sync.Once
	return func() { once.Do(func() { held.Add(-n) }) }
}

// Held returns what the program holds while later work runs (Hold).
func Held() int64 { return held.Load() }

// Exceeds is the refusal of work estimated to need more than limit bytes
// less Reserve and what is held (Hold): what needs about need, more than
// the memory limit of limit. It wraps ErrMemory. It returns nil when
// limit ≤ 0 or the estimate fits.
func Exceeds(what string, need, limit int64) error {
	aside := Reserve + held.Load()
	if limit <= 0 || need <= limit-aside {
		return nil
	}
	return &LimitError{What: what, Need: need, Limit: limit, Aside: aside}
}
