package cellgame

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// board is an h × w board to solve.
type board struct{ h, w int }

// shares are the boards of four solvers sharing a memo file: different
// heights, so that each solves components the others do not, and small
// ones they all meet.
var shares = [][]board{
	{{2, 9}, {2, 10}, {2, 11}},
	{{3, 6}, {3, 7}},
	{{4, 4}, {4, 5}},
	{{1, 18}, {5, 3}},
}

// keptSolver is a Node Kayles solver tied to file, as a family ties one.
func keptSolver(t testing.TB, file string, opts Options) (*Solver, *Kept) {
	t.Helper()
	s, err := New(kayles{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	k, err := Keep(file, s.Load, s.Save, func() int64 { return s.Stats().Entries })
	if err != nil {
		t.Fatal(err)
	}
	return s, k
}

// solveAll solves the boards one by one, saving after each as a family
// does after each game.
func solveAll(s *Solver, k *Kept, bs []board) error {
	for _, b := range bs {
		done := k.Use()
		_, err := s.Value(context.Background(), Full(b.h, b.w), b.h, b.w)
		done()
		if err != nil {
			return err
		}
		if err := k.Save(); err != nil {
			return err
		}
	}
	return nil
}

// union is a solver that solved every board of shares itself: its memo is
// the union of the memos of the solvers that share them.
func union(t *testing.T) *Solver {
	t.Helper()
	u, _ := New(kayles{}, Options{Fold: true})
	for _, bs := range shares {
		for _, b := range bs {
			if _, err := u.Value(context.Background(), Full(b.h, b.w), b.h, b.w); err != nil {
				t.Fatal(err)
			}
		}
	}
	return u
}

// checkUnion loads file into a new solver and checks that it holds the
// union: as many entries as u, and every board's value without solving.
func checkUnion(t *testing.T, file string, u *Solver) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, _ := New(kayles{}, Options{Fold: true})
	if err := l.Load(f); err != nil {
		t.Fatal(err)
	}
	if got, want := l.Stats().Entries, u.Stats().Entries; got != want {
		t.Errorf("the file holds %d entries, the union %d", got, want)
	}
	for _, bs := range shares {
		for _, b := range bs {
			v, err := l.Value(context.Background(), Full(b.h, b.w), b.h, b.w)
			w, _ := u.Value(context.Background(), Full(b.h, b.w), b.h, b.w)
			if err != nil || v != w {
				t.Errorf("%d × %d from the file: %d, %v; want %d", b.h, b.w, v, err, w)
			}
		}
	}
	if n := l.Stats().Solved; n != 0 {
		t.Errorf("%d components solved from the merged file, want 0", n)
	}
}

// Four solvers in one process, each with its own Kept of one file (each
// save locks, reads and merges as another process's would), solve and
// save at once: the file ends with the union of their memos, whichever
// saved last, and the entries each took from the others are counted.
func TestKeptConcurrentSaves(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nk.memo")
	u := union(t)
	var wg sync.WaitGroup
	errs := make([]error, len(shares))
	kepts := make([]*Kept, len(shares))
	for i, bs := range shares {
		s, k := keptSolver(t, file, Options{Fold: true})
		kepts[i] = k
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = solveAll(s, k, bs)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("solver %d: %v", i, err)
		}
	}
	checkUnion(t, file, u)
	var taken int64
	for i, k := range kepts {
		st := k.Stats()
		taken += st.Taken
		// a save is skipped when the memo did not grow: its board's
		// components all taken from the others already
		if st.Saves < 1 || st.Saves > int64(len(shares[i])) {
			t.Errorf("%s: want 1 to %d saves", st, len(shares[i]))
		}
		if st.Skipped != 0 {
			t.Errorf("%s: entries skipped without a bound", st)
		}
	}
	// Each save after the first of all took the entries the others had
	// written before it: the last of all at least took those of the
	// solvers that finished before it.
	if taken == 0 {
		t.Error("no save took another solver's entries")
	}
	// The lock file stays beside the memo, empty.
	if fi, err := os.Stat(file + ".lock"); err != nil || fi.Size() != 0 {
		t.Errorf("lock file: %v", err)
	}
}

// helperEnv makes the test binary a process that solves one share of
// shares into a memo file (TestKeptHelperProcess).
const helperEnv = "NIMBOOK_CELLGAME_KEPT_HELPER"

// Three processes (the test binary run again) share one memo file, as
// the tasks of a Slurm array on one machine do: the file ends with the
// union of their memos.
func TestKeptProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary three times")
	}
	file := filepath.Join(t.TempDir(), "nk.memo")
	u := union(t)
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKeptHelperProcess$", "-test.v")
		cmd.Env = append(os.Environ(), helperEnv+"="+strconv.Itoa(i)+":"+file)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
		t.Logf("process %d: %s", i, strings.TrimSpace(outs[i].String()))
	}
	// The fourth share, solved here after the others ended, loads theirs.
	s, k := keptSolver(t, file, Options{Fold: true})
	if err := solveAll(s, k, shares[3]); err != nil {
		t.Fatal(err)
	}
	if k.Stats().Loaded == 0 {
		t.Error("the last solver loaded nothing of the three processes' work")
	}
	checkUnion(t, file, u)
}

// TestKeptHelperProcess is one process of TestKeptProcesses.
func TestKeptHelperProcess(t *testing.T) {
	arg := os.Getenv(helperEnv)
	if arg == "" {
		t.Skip("a helper of TestKeptProcesses")
	}
	i, file, _ := strings.Cut(arg, ":")
	n, _ := strconv.Atoi(i)
	s, k := keptSolver(t, file, Options{Fold: true})
	if err := solveAll(s, k, shares[n]); err != nil {
		t.Fatal(err)
	}
	fmt.Println(k.Stats())
}

// A process killed while it saves (its lock held, its temporary file
// half written) leaves the last file whole and blocks no one: the kernel
// releases a flock with its holder, and the next save goes through.
func TestKeptKilledWhileSaving(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary")
	}
	file := filepath.Join(t.TempDir(), "nk.memo")
	s, k := keptSolver(t, file, Options{Fold: true})
	if err := solveAll(s, k, shares[0]); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKeptSaver$")
	cmd.Env = append(os.Environ(), helperEnv+"=save:"+file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 7)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "writing" {
		t.Fatalf("the saver says %q, %v", buf, err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if now, err := os.ReadFile(file); err != nil || !bytes.Equal(now, before) {
		t.Fatalf("the memo file after a save was killed: %d bytes, %v; want the %d before", len(now), err, len(before))
	}
	// Another solver saves past the dead one's lock, merging the file.
	s2, k2 := keptSolver(t, file, Options{Fold: true})
	if err := solveAll(s2, k2, shares[1]); err != nil {
		t.Fatal(err)
	}
	if st := k2.Stats(); st.Saves != int64(len(shares[1])) || st.Loaded == 0 {
		t.Errorf("%s after the saver was killed", st)
	}
}

// TestKeptSaver is the process TestKeptKilledWhileSaving kills: it loads
// the file, and its save stops half way through, the lock held.
func TestKeptSaver(t *testing.T) {
	file, ok := strings.CutPrefix(os.Getenv(helperEnv), "save:")
	if !ok {
		t.Skip("a helper of TestKeptKilledWhileSaving")
	}
	s, _ := New(kayles{}, Options{Fold: true})
	grown := int64(0)
	k, err := Keep(file, s.Load, func(w io.Writer) error {
		w.Write([]byte("nimbook cellgame memo 1 half of a file"))
		os.Stdout.WriteString("writing")
		time.Sleep(time.Minute) // killed long before
		return nil
	}, func() int64 { grown++; return grown })
	if err != nil {
		t.Fatal(err)
	}
	k.Save()
}

// Entries of every kind (compact, a compact key with a value past the
// compact's 7 bits, large keys with small and large values) are merged
// by two solvers saving one file; a value the file contradicts is
// refused, naming the file.
func TestKeptMergeKinds(t *testing.T) {
	file := filepath.Join(t.TempDir(), "m.memo")
	type entry struct {
		k       key
		compact bool
		v       uint16
	}
	a := []entry{{key{1, 2, 0}, true, 5}, {key{3, 4, 0}, true, 300}, {key{5, 6, 7}, false, 9}, {key{8, 9, 10}, false, 1000}}
	b := []entry{{key{11, 12, 0}, true, 0}, {key{13, 14, 0}, true, 127}, {key{15, 16, 17}, false, 2}, {key{1, 2, 0}, true, 5}}
	sa, ka := keptSolver(t, file, Options{Fold: true})
	sb, kb := keptSolver(t, file, Options{Fold: true})
	for _, e := range a {
		sa.memo.put(e.k, e.compact, e.v)
	}
	for _, e := range b {
		sb.memo.put(e.k, e.compact, e.v)
	}
	if err := ka.Save(); err != nil {
		t.Fatal(err)
	}
	if err := kb.Save(); err != nil {
		t.Fatal(err)
	}
	if st := kb.Stats(); st.Taken != 3 || st.Entries != 7 || sb.Stats().Taken != 3 {
		t.Errorf("the second save: %s, the solver's %+v; want 3 taken, 7 entries", st, sb.Stats())
	}
	// The progress line says what the other processes gave.
	p := budget.NewProgress()
	if _, err := sb.Value(budget.WithProgress(context.Background(), p), Full(3, 9), 3, 9); err != nil {
		t.Fatal(err)
	}
	if line := p.Snapshot().String(); !strings.Contains(line, " entries, 3 from other processes)") {
		t.Errorf("progress line %q, want the 3 entries taken", line)
	}
	l, kl := keptSolver(t, file, Options{Fold: true})
	if st := kl.Stats(); st.Loaded != 7 || l.Stats().Entries != 7 {
		t.Errorf("loaded: %s, %d entries; want 7", st, l.Stats().Entries)
	}
	for _, e := range append(a, b...) {
		if v, ok := l.memo.get(e.k, e.compact); !ok || v != e.v {
			t.Errorf("entry %v: %d, %v; want %d", e.k, v, ok, e.v)
		}
	}
	// A solver whose value of {1, 2} is not the file's.
	sc, kc := keptSolver(t, filepath.Join(t.TempDir(), "c.memo"), Options{Fold: true})
	_ = sc
	kc.file = file
	sc.memo.put(key{1, 2, 0}, true, 6)
	err := kc.Save()
	if err == nil || !strings.Contains(err.Error(), "memo file "+file) || !strings.Contains(err.Error(), "not this rule's") {
		t.Errorf("a contradicting value: %v", err)
	}
}

// A memo file of another rule, or folding, is refused naming the file,
// when loaded and when a save finds it in place of its own; a damaged
// one too; the file is left as it was.
func TestKeptRefusals(t *testing.T) {
	dir := t.TempDir()
	cram := filepath.Join(dir, "cram.memo")
	sc, _ := New(dominoes{}, Options{Fold: true})
	kc, err := Keep(cram, sc.Load, sc.Save, func() int64 { return sc.Stats().Entries })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Value(context.Background(), Full(3, 4), 3, 4); err != nil {
		t.Fatal(err)
	}
	if err := kc.Save(); err != nil {
		t.Fatal(err)
	}
	cramBytes, _ := os.ReadFile(cram)
	s, _ := New(kayles{}, Options{Fold: true})
	_, err = Keep(cram, s.Load, s.Save, func() int64 { return s.Stats().Entries })
	if err == nil || !strings.Contains(err.Error(), "memo file "+cram) || !strings.Contains(err.Error(), "rule=cellgame.dominoes") {
		t.Errorf("Node Kayles on Cram's memo file: %v", err)
	}
	unfolded, _ := New(dominoes{}, Options{})
	if _, err = Keep(cram, unfolded.Load, unfolded.Save, func() int64 { return 0 }); err == nil || !strings.Contains(err.Error(), "fold=true") {
		t.Errorf("an unfolded solver on a folded memo file: %v", err)
	}

	// Another rule's file put in place of this one's after its load: the
	// save refuses it and leaves it.
	nk := filepath.Join(dir, "nk.memo")
	s2, k2 := keptSolver(t, nk, Options{Fold: true})
	if err := solveAll(s2, k2, shares[1][:1]); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nk, cramBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Value(context.Background(), Full(3, 7), 3, 7); err != nil {
		t.Fatal(err)
	}
	err = k2.Save()
	if err == nil || !strings.Contains(err.Error(), "memo file "+nk) || !strings.Contains(err.Error(), "rule=cellgame.dominoes") {
		t.Errorf("a save over another rule's file: %v", err)
	}
	if now, _ := os.ReadFile(nk); !bytes.Equal(now, cramBytes) {
		t.Error("the refused file was changed")
	}

	// Damaged: cut short, or a record of an unknown kind.
	good, _ := os.ReadFile(cram)
	for name, data := range map[string][]byte{
		"cut.memo":   good[:len(good)-5],
		"kind.memo":  append(append([]byte{}, good...), 9, 1, 2),
		"empty.memo": {},
	} {
		f := filepath.Join(dir, name)
		os.WriteFile(f, data, 0o644)
		s, _ := New(dominoes{}, Options{Fold: true})
		if _, err := Keep(f, s.Load, s.Save, func() int64 { return 0 }); err == nil || !strings.Contains(err.Error(), "memo file "+f) {
			t.Errorf("%s: %v; want a refusal naming the file", name, err)
		}
	}
}

// A solver bounded below the file's size loads what fits and leaves the
// rest in the file, saying so; a save takes others' entries only while
// its memo is under half its bound, and still writes the union.
func TestKeptBound(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nk.memo")
	u := union(t)
	// The whole union, written by one unbounded solver.
	s, k := keptSolver(t, file, Options{Fold: true})
	for _, bs := range shares {
		if err := solveAll(s, k, bs); err != nil {
			t.Fatal(err)
		}
	}
	all := u.Stats().Entries
	bound := all / 3
	b, kb := keptSolver(t, file, Options{Fold: true, MaxEntries: bound})
	st := kb.Stats()
	if b.Stats().Entries != bound || st.Loaded != bound || st.Skipped != all-bound {
		t.Errorf("bounded at %d of %d: %s, %d in the memo", bound, all, st, b.Stats().Entries)
	}
	if !strings.Contains(st.String(), "left in the file (no room under the memory limit)") {
		t.Errorf("stats line %q", st)
	}

	// Another bounded solver that solved a little of its own saves: it
	// takes others' entries up to half its bound, and the file keeps all.
	file2 := filepath.Join(t.TempDir(), "nk.memo")
	os.Link(file, file2)
	c, kc := keptSolver(t, filepath.Join(t.TempDir(), "none.memo"), Options{Fold: true, MaxEntries: bound})
	kc.file = file2
	kc.whole = false
	if _, err := c.Value(context.Background(), Full(2, 9), 2, 9); err != nil {
		t.Fatal(err)
	}
	own := c.Stats().Entries
	if err := kc.Save(); err != nil {
		t.Fatal(err)
	}
	st = kc.Stats()
	if own >= bound/2 {
		t.Fatalf("%d entries of its own, the test wants fewer than %d", own, bound/2)
	}
	if c.Stats().Entries != bound/2 || st.Taken != bound/2-own || st.Entries != all {
		t.Errorf("a save bounded at %d with %d of its own: %s, %d in the memo; want %d taken and the file whole (%d)", bound, own, st, c.Stats().Entries, bound/2-own, all)
	}
	checkUnion(t, file2, u)
}
