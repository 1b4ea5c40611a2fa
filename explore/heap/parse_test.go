package heap

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

type codeCase struct {
	kind, code, want string
}

// readCodes reads testdata/codes.txt: "kind code want" per line.
func readCodes(tb testing.TB) []codeCase {
	tb.Helper()
	f, err := os.Open("testdata/codes.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []codeCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) != 3 {
			tb.Fatalf("bad line %q", line)
		}
		out = append(out, codeCase{f[0], f[1], f[2]})
	}
	return out
}

func parseKind(kind, s string) (string, error) {
	if kind == "hex" {
		g, err := ParseHex(s)
		if err != nil {
			return "", err
		}
		return g.Code(), nil
	}
	g, err := ParseOctal(s)
	if err != nil {
		return "", err
	}
	return g.Code(), nil
}

func TestParseCodes(t *testing.T) {
	for _, c := range readCodes(t) {
		t.Run(c.kind+" "+c.code, func(t *testing.T) {
			got, err := parseKind(c.kind, c.code)
			if c.want == "ok" {
				if err != nil {
					t.Fatal(err)
				}
				again, err := parseKind(c.kind, got)
				if err != nil || again != got {
					t.Errorf("canonical %q parses to %q, %v", got, again, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("parsed as %q, want an error containing %q", got, c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "heap: ") {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestCanonicalCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{".07", "0.07"}, {"4.", "4.0"}, {"0.0700", "0.07"}, {"0.", "0.0"}, {" 0.77 ", "0.77"},
	} {
		g, err := ParseOctal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if g.Code() != tc.want || g.String() != "octal "+tc.want {
			t.Errorf("%q: Code %q, String %q; want %q", tc.in, g.Code(), g.String(), tc.want)
		}
	}
	h, err := ParseHex(".8F")
	if err != nil || h.Code() != "0.8f" || h.Digit(1) != 8 || h.Digit(2) != 15 || h.Digit(3) != 0 {
		t.Errorf("hex .8F: %v %v", h, err)
	}
}

func TestParseErrorNamesCharacter(t *testing.T) {
	_, err := ParseOctal("0.078")
	if err == nil || !strings.Contains(err.Error(), `character 5 is '8'`) {
		t.Errorf("got %v, want it to name character 5 '8'", err)
	}
}

func FuzzParseOctal(f *testing.F) {
	for _, c := range readCodes(f) {
		f.Add(c.code)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, kind := range []string{"octal", "hex"} {
			got, err := parseKind(kind, s)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "heap: ") {
					t.Errorf("error without prefix: %v", err)
				}
				continue
			}
			again, err := parseKind(kind, got)
			if err != nil || again != got {
				t.Errorf("%s %q: canonical %q parses to %q, %v", kind, s, got, again, err)
			}
		}
	})
}
