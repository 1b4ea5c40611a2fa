package job

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/starrule" // the rule family of job files
)

// TestStarlarkRule runs a job whose game is a heap rule written in
// Starlark: its file is found beside the job file, its values and an
// observed (never proven) period come out under SPEC's keys, and a broken
// file is an error that names the .star file and its line before any work.
func TestStarlarkRule(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("rules.star", `
def take(n, k):
    # take 1..k tokens: the values repeat with period k + 1
    return [[n - t] for t in range(1, min(k, n) + 1)]

def broken(n):
    return [[n - 1]] + 1
`)
	jobFile := write("job.yaml", `
title: rules
sections:
  - game: {rule: {file: rules.star, name: take, params: {k: 2}, upto: 11}}
    position: [4, 5]
    show: [values, period, outcome, moves]
`)
	j, err := ParseFile(jobFile)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), j, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Sections[0].Results
	if got, want := formatUints(r.Values), "0 1 2 0 1 2 0 1 2 0 1 2"; got != want {
		t.Errorf("values %s, want %s", got, want)
	}
	per, _ := json.Marshal(r.Period)
	if want := `{"proven":false,"checked_to":11,"method":"no period found","observed":{"preperiod":0,"period":3}}`; string(per) != want {
		t.Errorf("period %s, want %s", per, want)
	}
	if moves, _ := json.Marshal(r.Moves); r.Outcome != "N" || string(moves) != "[[2,5],[4,4]]" {
		t.Errorf("outcome %s moves %v, want N and (2, 5), (4, 4)", r.Outcome, r.Moves)
	}
	game, _ := json.Marshal(j.Sections[0].GameJSON())
	if want := `{"rule":{"file":"rules.star","name":"take","params":{"k":2},"position":[4,5],"upto":11}}`; string(game) != want {
		t.Errorf("game %s, want %s", game, want)
	}

	for _, tc := range []struct{ name, game, want string }{
		{"runtime error", `{rule: {file: rules.star, name: broken, upto: 5}}`, "rules.star:"},
		{"missing function", `{rule: {file: rules.star, name: nothere, upto: 5}}`, "nothere"},
		{"missing file", `{rule: {file: none.star, name: take, upto: 5}}`, "none.star"},
		{"wrong params", `{rule: {file: rules.star, name: take, params: {j: 1}, upto: 5}}`, "rules.star"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write("bad.yaml", "sections:\n  - game: "+tc.game+"\n    show: [values]\n")
			j, err := ParseFile(p)
			if err == nil {
				_, err = Run(context.Background(), j, Options{})
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.yaml") && tc.name != "runtime error" {
				t.Errorf("error %v, want one naming the job file and %q", err, tc.want)
			}
		})
	}
}

func formatUints(xs []uint64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(x, 10))
	}
	return b.String()
}
