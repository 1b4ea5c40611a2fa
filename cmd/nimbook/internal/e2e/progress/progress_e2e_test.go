//go:build unix

package progress

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// progressGame is a game whose hint takes seconds: the Wythoff table of
// its start, 16000² = 2.56·10^8 cells (about 3 s on two cores; 10^8, the
// default limit, took 1.2 s, too close to the line's one-second delay on
// a faster machine). A loaded machine only makes it longer.
// progressDelay and progressEvery are cmd/nimbook's: the progress line
// appears once work has run for a second, and is redrawn five times a
// second.
const (
	progressDelay = time.Second
	progressEvery = 200 * time.Millisecond
)

var progressGame = []string{"play", "wythoff", "--position", "15999,15999", "--max-positions", "256000000", "--seed", "1"}

// reWythoffLine is the progress line of the table: done/total, percent.
var reWythoffLine = regexp.MustCompile(`Wythoff table: \d+/256000000 \(\d+%\)`)

// TestPlayProgressTmux plays in a real terminal (tmux): a hint that takes
// over a second shows the progress line on its own line while it runs,
// and the line is gone, the prompt intact, when the game goes on; with
// --quiet no line shows. Without tmux it is skipped, unless NIMBOOK_E2E=1.
func TestPlayProgressTmux(t *testing.T) {
	tx := e2e.NewTmux(t)
	for _, quiet := range []bool{false, true} {
		name := map[bool]string{false: "terminal", true: "quiet"}[quiet]
		t.Run(name, func(t *testing.T) {
			args := progressGame
			if quiet {
				args = append(args[:len(args):len(args)], "--quiet")
			}
			cmd := tx.Bin + " " + strings.Join(args, " ") + "; echo EXITED $?; sleep 60"
			tx.TM("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "150", "-y", "40", cmd)
			// Everything written to the terminal goes to a file as well:
			// a line shown between two captures of the screen is not
			// missed, however loaded the machine.
			written := filepath.Join(tx.Dir, name+".out")
			tx.TM("pipe-pane", "-t", name, "-o", "cat >> '"+written+"'")
			tx.Screen(t, name, "your move>")
			tx.TM("send-keys", "-t", name, "hint", "Enter")
			start := time.Now()
			var pane string
			for deadline := start.Add(e2e.HangGuard); ; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no hint after %v:\n%s", e2e.HangGuard, pane)
				}
				pane = tx.TM("capture-pane", "-p", "-t", name)
				if strings.Contains(pane, "Hint: values") {
					break
				}
			}
			took := time.Since(start)
			tx.WaitCount(t, name, "your move>", 2)
			pane = tx.TM("capture-pane", "-p", "-t", name)
			out, err := os.ReadFile(written)
			if err != nil {
				t.Fatal(err)
			}
			seen := reWythoffLine.FindString(string(out))
			// The line shows once the work has run for progressDelay and
			// the line's goroutine has had a moment (progressEvery, and
			// room for a loaded machine) to draw it.
			switch {
			case quiet && seen != "":
				t.Errorf("--quiet, and the progress line %q showed", seen)
			case !quiet && seen == "" && took > 2*progressDelay+progressEvery:
				t.Errorf("the hint took %v and no progress line showed; the last screen:\n%s", took, pane)
			case !quiet && seen == "":
				t.Fatalf("the hint took %v only: this test needs work of over two seconds", took)
			}
			// The line is erased: nothing of it is left, and the prompt
			// waits at the start of the last line.
			if strings.Contains(pane, "Wythoff table") || strings.Contains(pane, "ETA") {
				t.Errorf("the progress line was left on the screen:\n%s", pane)
			}
			var rows []string
			for _, r := range strings.Split(pane, "\n") {
				if r = strings.TrimRight(r, " "); r != "" {
					rows = append(rows, r)
				}
			}
			if rows[len(rows)-1] != "your move>" {
				t.Errorf("the last line is %q, want the prompt alone:\n%s", rows[len(rows)-1], pane)
			}
			if !strings.Contains(pane, "\nyour move> hint\nHint: values (15999,15999) = ") {
				t.Errorf("the hint is not right under the command typed:\n%s", pane)
			}
			tx.TM("send-keys", "-t", name, "quit", "Enter")
			pane = tx.Screen(t, name, "EXITED 0")
			if !strings.Contains(pane, "your move> quit\nGame left unfinished.") {
				t.Errorf("quitting:\n%s", pane)
			}
		})
	}
}

// TestPlayProgressPiped: in a pipe, the same long hint prints no progress
// line, nor any terminal control, on either stream.
func TestPlayProgressPiped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cmd := exec.Command(e2e.Binary(t), progressGame...)
	cmd.Stdin = strings.NewReader("hint\nquit\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("standard error in a pipe: %q", stderr.String())
	}
	if !strings.Contains(stdout.String(), "Hint: values (15999,15999) = ") {
		t.Errorf("no hint:\n%s", stdout.String())
	}
	if strings.ContainsAny(stdout.String(), "\r\x1b") {
		t.Errorf("terminal controls in a pipe:\n%q", stdout.String())
	}
}
