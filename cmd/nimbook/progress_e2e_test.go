//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// progressGame is a game whose hint takes seconds: the Wythoff table of
// its start, 16000² = 2.56·10^8 cells (about 3 s on two cores; 10^8, the
// default limit, took 1.2 s, too close to the line's one-second delay on
// a faster machine).
var progressGame = []string{"play", "wythoff", "--position", "15999,15999", "--max-positions", "256000000", "--seed", "1"}

// reWythoffLine is the progress line of the table: done/total, percent.
var reWythoffLine = regexp.MustCompile(`(?m)^Wythoff table: \d+/256000000 \(\d+%\)`)

// TestPlayProgressTmux plays in a real terminal (tmux): a hint that takes
// over a second shows the progress line on its own line while it runs,
// and the line is gone, the prompt intact, when the game goes on; with
// --quiet no line shows. Without tmux it is skipped, unless NIMBOOK_E2E=1.
func TestPlayProgressTmux(t *testing.T) {
	tx := newTmux(t)
	for _, quiet := range []bool{false, true} {
		name := map[bool]string{false: "terminal", true: "quiet"}[quiet]
		t.Run(name, func(t *testing.T) {
			args := progressGame
			if quiet {
				args = append(args[:len(args):len(args)], "--quiet")
			}
			cmd := tx.bin + " " + strings.Join(args, " ") + "; echo EXITED $?; sleep 60"
			tx.tm("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "150", "-y", "40", cmd)
			tx.screen(t, name, "your move>")
			tx.tm("send-keys", "-t", name, "hint", "Enter")
			start := time.Now()
			seen := ""
			var pane string
			for deadline := start.Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no hint after a minute:\n%s", pane)
				}
				pane = tx.tm("capture-pane", "-p", "-t", name)
				if m := reWythoffLine.FindString(pane); m != "" && seen == "" {
					seen = m
				}
				if strings.Contains(pane, "Hint: values") {
					break
				}
			}
			took := time.Since(start)
			tx.waitCount(t, name, "your move>", 2)
			pane = tx.tm("capture-pane", "-p", "-t", name)
			switch {
			case quiet && seen != "":
				t.Errorf("--quiet, and the progress line %q showed", seen)
			case !quiet && seen == "" && took > progressDelay+progressDelay/2:
				t.Errorf("the hint took %v and no progress line showed; the last screen:\n%s", took, pane)
			case !quiet && seen == "":
				t.Fatalf("the hint took %v only: this test needs work of over a second", took)
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
			tx.tm("send-keys", "-t", name, "quit", "Enter")
			pane = tx.screen(t, name, "EXITED 0")
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
	cmd := exec.Command(nimbookBinary(t), progressGame...)
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
