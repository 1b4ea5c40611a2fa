package survey

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChangedRule: a survey's identity includes its rule file's content
// (issue 29, class 5): after the .star file changes, a run into the old
// database is refused, saying why, and merge refuses shards computed with
// two versions of the rule; a survey without a rule file keeps its hash.
func TestChangedRule(t *testing.T) {
	dir := t.TempDir()
	rule := filepath.Join(dir, "take.star")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// take(n, k): take 1 to k tokens; then 1 to k+1 (another game).
	write(rule, "def take(n, k):\n    return [[n - i] for i in range(1, min(k, n) + 1)]\n")
	src := "survey:\n  rule: {file: take.star, name: take, params: {k: \"1..3\"}, upto: 12}\nshow: [values]\n"
	file := filepath.Join(dir, "s.yaml")
	write(file, src)
	parse := func() *Survey {
		t.Helper()
		s, err := ParseFile(file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s1 := parse()
	if !strings.HasPrefix(s1.Rules, "take.star ") {
		t.Fatalf("Rules = %q, want take.star and its hash", s1.Rules)
	}
	a := filepath.Join(dir, "a.db")
	runAll(t, s1, a, Shard{I: 0, N: 2}, 1)
	if again := parse(); again.Hash != s1.Hash {
		t.Fatalf("the same rule file gives another hash: %s, %s", again.Hash, s1.Hash)
	}

	write(rule, "def take(n, k):\n    return [[n - i] for i in range(1, min(k + 1, n) + 1)]\n")
	s2 := parse()
	if s2.Hash == s1.Hash || s2.Rules == s1.Rules {
		t.Fatalf("a changed rule file keeps the survey's identity: %s", s2.Hash)
	}
	if _, err := Create(a, s2); err == nil || !strings.Contains(err.Error(), "another version of the rule file") {
		t.Fatalf("re-run after the rule changed: %v; want a refusal saying the rule changed", err)
	}
	b := filepath.Join(dir, "b.db")
	runAll(t, s2, b, Shard{I: 1, N: 2}, 1)
	_, err := Merge(filepath.Join(dir, "m.db"), []string{a, b})
	if err == nil || !strings.Contains(err.Error(), "another version of the rule file") {
		t.Fatalf("merging shards of two versions of the rule: %v; want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.db")); err == nil {
		t.Errorf("the refused merge wrote m.db")
	}

	plain := mustParse(t, "survey: {octal: {digits: 1, upto: 30}}\nshow: [period]")
	if plain.Rules != "" {
		t.Errorf("a survey without rule files has Rules %q", plain.Rules)
	}
}
