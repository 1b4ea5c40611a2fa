//go:build unix

package hostile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// A hostileCase runs the built command on bad input and checks what a user
// would see: the exit status, the message, the files left, and for some the
// memory used. Add a case with one line in hostileCases.
type hostileCase struct {
	name string
	// args of nimbook, split at blanks (argv for arguments with blanks);
	// $T stands for testdata/hostile.
	args  string
	argv  []string
	stdin string
	// files are made in the case's working directory first: "@NAME" is a
	// copy of testdata/hostile/NAME, "->TARGET" a symbolic link, "/" a
	// directory, "|" a FIFO, anything else the content.
	files map[string]string
	// never is text that must not appear in any output (another file's
	// content).
	never string
	// gone lists files of files the run must remove (a killed write's
	// leftovers).
	gone []string
	code int
	msg  string // in standard error (standard output for play)
	out  string // in standard output
	// creates lists the files the run may add to its directory; any other
	// file, a temporary one above all, is a failure.
	creates []string
	// keeps lists files (of files) that must hold after the run what they
	// held before: inputs an output must never replace.
	keeps []string
	// env is added to the environment ("SLURM_CONF=slurm.conf").
	env     []string
	maxRSS  int64         // bytes of peak resident memory; 0: not measured
	maxTime time.Duration // of processor time (work, which load does not stretch); 0: 30 s
	maxOut  int           // bytes of standard output and error together; 0: any
}

const mib = 1 << 20

// fourSweeps is a job of four sweeps of about 17 MiB each: two at a time
// they ran together under --max-memory 64MiB and peaked at 69 MiB (issue
// 21).
const fourSweeps = `sections:
  - game: {octal: {code: "0.354", upto: 1500000}}
    show: [period]
  - game: {octal: {code: "0.354", upto: 1500001}}
    show: [period]
  - game: {octal: {code: "0.354", upto: 1500002}}
    show: [period]
  - game: {octal: {code: "0.354", upto: 1500003}}
    show: [period]
`

func hostileCases() []hostileCase {
	ok := map[string]string{"job.yaml": "@ok.yaml"}
	sv := map[string]string{"s.yaml": "@survey.yaml"}
	with := func(m map[string]string, more ...string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(more); i += 2 {
			out[more[i]] = more[i+1]
		}
		return out
	}
	nl := "s\ntouch PWNED\n#.yaml" // a survey file whose name would run touch
	star := "def take(n, k):\n    return [[n - i] for i in range(1, min(n, k) + 1)]\n"
	rules := map[string]string{
		"rules.star": star,
		"job.yaml":   "sections:\n  - game: {rule: {file: rules.star, name: take, params: {k: 2}, upto: 10}}\n    show: [values]\n",
		"s.yaml":     "survey:\n  rule: {file: rules.star, name: take, params: {k: \"1..3\"}, upto: 10}\nshow: [values]\n",
	}
	const secret = "s3cr3tTOKENabc123\n"
	return []hostileCase{
		// The command line.
		{name: "no command", args: "", code: 2, msg: "no command given"},
		{name: "unknown command", args: "frobnicate", code: 2, msg: `unknown command "frobnicate"`},
		{name: "help", args: "help", out: "nimbook run FILE"},
		{name: "version", args: "version", out: "nimbook "},
		{name: "--version", args: "--version", out: "go1."},
		{name: "run --help", args: "run --help", out: "nimbook run FILE"},
		{name: "run -h", args: "run -h", out: "--max-memory SIZE"},
		{name: "eval --help", args: "eval --help", out: "nimbook eval"},
		{name: "nim --help", args: "nim --help", out: "nimbook nim"},
		{name: "play --help", args: "play --help", out: "Usage: nimbook play"},
		{name: "kernel install --help", args: "kernel install --help", out: "nimbook kernel install"},
		{name: "nim not a number", args: "nim mul x 1", code: 2, msg: `"x" is not a nimber`},
		{name: "nim -1", args: "nim add -1", code: 2, msg: "is not a nimber"},
		{name: "nim inverse of 0", args: "nim inv 0", code: 1, msg: "no nim-inverse"},
		{name: "unknown flag", args: "run $T/ok.yaml --frob", code: 2, msg: "unknown flag --frob"},
		{name: "flag without value", args: "run $T/ok.yaml -o", code: 2, msg: "-o needs a value"},
		{name: "max-positions 0", args: "run $T/ok.yaml --max-positions 0", code: 2, msg: "at least 1"},
		{name: "max-positions negative", args: "run $T/ok.yaml --max-positions -5", code: 2, msg: "at least 1"},
		{name: "max-positions not a number", args: "run $T/ok.yaml --max-positions lots", code: 2, msg: "not a whole number"},
		{name: "max-memory 0", args: "run $T/ok.yaml --max-memory 0", code: 2, msg: "write a size like"},
		{name: "max-memory garbage", args: "run $T/ok.yaml --max-memory 4XB", code: 2, msg: "write a size like"},
		{name: "unknown format", args: "run $T/ok.yaml --format docx", code: 2, msg: "--format"},
		{name: "unknown extension", args: "run $T/ok.yaml -o out.docx", code: 2, msg: "cannot tell the format"},
		{name: "unknown language", args: "run $T/ok.yaml --lang de", code: 2, msg: "write en or fr"},
		{name: "wrap 0", args: "run $T/ok.yaml --wrap 0", code: 2, msg: "--wrap 0"},
		{name: "two files", args: "run $T/ok.yaml $T/ok.yaml", code: 2, msg: "run takes one file"},

		// Job files.
		{name: "missing job file", args: "run nope.yaml", code: 1, msg: "nope.yaml: no such file"},
		{name: "job file is a directory", args: "run dir.yaml", files: map[string]string{"dir.yaml": "/"}, code: 1, msg: "dir.yaml is a directory"},
		{name: "empty job file", args: "run empty.yaml", files: map[string]string{"empty.yaml": ""}, code: 1, msg: "empty.yaml: the file is empty"},
		{name: "binary job file", args: "run $T/garbage.yaml", code: 1, msg: "garbage.yaml"},
		{name: "job file linked to /dev/zero", args: "run zero.yaml", files: map[string]string{"zero.yaml": "->/dev/zero"}, code: 1, msg: "larger than", maxRSS: 200 * mib},
		{name: "alias bomb", args: "run $T/alias-bomb.yaml", code: 1, msg: "alias-bomb.yaml:1", maxRSS: 200 * mib},
		{name: "deep nesting", args: "run $T/deep.yaml", code: 1, msg: "deep.yaml:3", maxRSS: 200 * mib},
		{name: "not a job file", args: "run notes.txt", files: map[string]string{"notes.txt": "x"}, code: 1, msg: "reads job files"},
		{name: "work past the limit", args: "run $T/huge-wythoff.yaml", code: 1, msg: "--max-positions", maxRSS: 200 * mib},
		{name: "work past the job's limits", args: "run $T/tiny-limits.yaml", code: 1, msg: "limits.positions"},
		{name: "work past --max-positions", args: "run $T/wythoff-20.yaml --max-positions 100", code: 1, msg: "--max-positions"},
		{name: "--max-positions over limits:", args: "run $T/tiny-limits.yaml --max-positions 1000 --format json", out: `"table"`},
		{name: "missing templates", args: "run $T/ok.yaml --templates nodir", code: 1, msg: "--templates nodir: no such directory"},
		{name: "escapes in titles", args: "run $T/escape-title.yaml -o out.md", code: 0, creates: []string{"out.md"}},
		{name: "-o onto the input", args: "run job.yaml -o job.yaml --format md", files: ok, code: 1, msg: "job.yaml is also the input"},
		{name: "-o onto the input through a link", args: "run job.yaml -o link.md", files: map[string]string{"job.yaml": "@ok.yaml", "link.md": "->job.yaml"}, code: 1, msg: "is the input job.yaml"},
		{name: "-o into a missing directory", args: "run job.yaml -o nodir/out.md", files: ok, code: 1, msg: "cannot write nodir/out.md: the directory nodir does not exist"},
		{name: "-o onto a directory", args: "run job.yaml -o sub.md", files: map[string]string{"job.yaml": "@ok.yaml", "sub.md": "/"}, code: 1, msg: "sub.md is a directory"},
		{name: "-o failing leaves no exports", args: "run job.yaml -o nodir/out.md --export ex", files: ok, code: 1, msg: "does not exist"},
		{name: "--export onto a file", args: "run job.yaml -o out.md --export job.yaml", files: ok, code: 1, msg: "--export job.yaml: job.yaml is not a directory"},
		{name: "-o /dev/null", args: "run job.yaml -o /dev/null --format json", files: ok},
		{name: "-o and --export", args: "run job.yaml -o out.json --export ex --quiet", files: ok, creates: []string{"out.json", "ex"}},
		// Outputs that would destroy an input, or be silently dropped
		// (issue 21).
		{name: "--in-place on a job file", args: "run job.yaml --in-place", files: ok, code: 2, msg: "--in-place rewrites .ipynb notebooks", keeps: []string{"job.yaml"}},
		{name: "--in-place on a .yml job file", args: "run job.yml --in-place --format json", files: map[string]string{"job.yml": "@ok.yaml"}, code: 2, msg: "job.yml is a job file"},
		{name: "--in-place and -o on a job file", args: "run job.yaml --in-place -o out.md", files: ok, code: 2, msg: "--in-place"},
		{name: "-o onto the rule file", args: "run job.yaml -o rules.star --format md", files: rules, code: 1, msg: "rules.star is also the input", keeps: []string{"rules.star"}},
		{name: "-o onto the rule file through a link", args: "run job.yaml -o r.md", files: with(rules, "r.md", "->rules.star"), code: 1, msg: "r.md is the input rules.star", keeps: []string{"rules.star"}},
		{name: "--export through a dangling link", args: "run job.yaml -o out.md --export ex", files: with(ok, "ex", "->nodir/ex"), code: 1, msg: "--export ex: ex is a link to nodir/ex, which does not exist"},
		{name: "-o through a dangling link", args: "run job.yaml -o out.md", files: with(ok, "out.md", "->nodir/x.md"), code: 1, msg: "the directory nodir does not exist (out.md is a link to nodir/x.md)"},
		{name: "-o through a link into a file", args: "run job.yaml -o out.md", files: with(ok, "out.md", "->job.yaml/x.md"), code: 1, msg: "job.yaml is not a directory (out.md is a link to job.yaml/x.md)"},
		{name: "-o through a link to a new file", args: "run job.yaml -o out.md --quiet", files: with(ok, "out.md", "->made.md"), creates: []string{"made.md"}},
		{name: "--export failing leaves no report", args: "run job.yaml -o out.md --export ex --quiet", files: map[string]string{"job.yaml": "@values.yaml", "ex/s01-values.csv": "/"}, code: 1, msg: "--export ex: ex/s01-values.csv is a directory"},
		{name: "--export failing prints no report", args: "run job.yaml --export ex --quiet", files: map[string]string{"job.yaml": "@values.yaml", "ex/s01-values.b.txt": "/"}, code: 1, msg: "is a directory", creates: []string{"ex"}},
		{name: "--export failing keeps the old report", args: "run job.yaml -o out.md --export ex --quiet", files: map[string]string{"job.yaml": "@values.yaml", "out.md": "old report", "ex/s01-values.csv": "/"}, code: 1, msg: "--export ex", keeps: []string{"out.md"}},

		// Notebooks.
		{name: "missing notebook", args: "run nope.ipynb", code: 1, msg: "nope.ipynb: no such file"},
		{name: "broken notebook", args: "run $T/bad.ipynb", code: 1, msg: "bad.ipynb: not a Jupyter notebook"},
		{name: "-o onto the input notebook", args: "run nb.md -o nb.md", files: map[string]string{"nb.md": "@escape.md"}, code: 1, msg: "refusing to overwrite the input notebook"},
		{name: "--in-place on Markdown", args: "run nb.md --in-place", files: map[string]string{"nb.md": "@escape.md"}, code: 2, msg: "--in-place rewrites .ipynb"},
		{name: "failing cell", args: "run $T/fail.md -o out.html", code: 1, msg: "fail.md:5: cell 1"},
		{name: "endless cell", args: "run $T/loop.md -o out.md", code: 1, msg: "cell 1: StepLimit", maxTime: time.Minute},
		{name: "notebook as JSON", args: "run $T/escape.md --format json", code: 1, msg: "--format json"},
		{name: "notebook with --export", args: "run $T/escape.md --export ex", code: 2, msg: "--export"},
		{name: "notebook into a missing directory", args: "run $T/escape.md -o nodir/x.ipynb", code: 1, msg: "nodir does not exist"},

		// Cells.
		{name: "eval syntax error", args: "eval", argv: []string{"nim_mul(2,"}, code: 1, msg: "SyntaxError"},
		{name: "eval no code", args: "eval", code: 2, msg: "eval takes one cell"},
		{name: "eval from stdin", args: "eval -", stdin: "nim_mul(2, 3)\n", out: "1"},
		{name: "eval escapes in an error", args: "eval", argv: []string{`fail("\x1b]0;pwned\x07")`}, code: 1, msg: `\x1b]0;pwned\x07`},
		{name: "eval huge list", args: "eval", argv: []string{"x = [0] * 100000000000"}, code: 1, msg: "eval", maxRSS: 500 * mib},
		{name: "eval endless loop", args: "eval", argv: []string{"limits(steps=1000000)\ndef f():\n    for i in range(1000000000000):\n        pass\nf()"}, code: 1, msg: "past its budget", maxTime: time.Minute},
		// Showing a list nested 400 000 deep took minutes (the depth squared) in one
		// uninterruptible step; shown 100 deep, printed whole, counted in the budget.
		{name: "eval shows a deep list", args: "eval", argv: []string{"x = []\nfor i in range(400000):\n    x = [x]\nx"}, out: "[[[[…]]]]", maxTime: 20 * time.Second},
		{name: "eval prints a deep list", args: "eval", argv: []string{"x = []\nfor i in range(400000):\n    x = [x]\nprint(x)"}, out: "[[[[]]]]", maxTime: 20 * time.Second},
		{name: "eval str of a deep list past --max-steps", args: "eval --max-steps 6000000", argv: []string{"x = []\nfor i in range(400000):\n    x = [x]\nfor i in range(100):\n    s = str(x)"}, code: 1, msg: "line 5: the cell ran past its budget of 6000000 steps", maxTime: 20 * time.Second},
		{name: "eval max-steps 0", args: "eval --max-steps 0 1", code: 2, msg: "--max-steps 0"},
		{name: "eval past --max-steps", args: "eval --max-steps 1000", argv: []string{"def f():\n    for i in range(100000):\n        pass\nf()"}, code: 1, msg: "budget of 1000 steps"},
		{name: "eval raising the step ceiling", args: "eval", argv: []string{"limits(steps=1000000000000)"}, code: 1, msg: "ceiling"},
		{name: "eval max-positions 0", args: "eval --max-positions 0 1", code: 2, msg: "at least 1"},

		// Memory limits a cell, a survey or a job cannot escape (issue 21):
		// containers grown a step at a time are refused before the growth
		// that would pass the limit (a dict's table doubles at once: 362
		// MiB under 256MiB before), a cell's limits(memory=...) holds the
		// watchdog too, and the peak resident memory stays at or under
		// every limit.
		{name: "eval dict grown in a loop", args: "eval --max-memory 256MiB", argv: []string{"d = {}\nfor i in range(100000000):\n    d[i] = i"}, code: 1, msg: "line 3: growing a dict past 1703936 items needs about 228 MiB, more than the memory limit of 256 MiB allows", maxRSS: 256 * mib},
		{name: "eval dict comprehension", args: "eval --max-memory 256MiB", argv: []string{"d = {i: i for i in range(100000000)}"}, code: 1, msg: "line 1: growing a dict past 1703936 items", maxRSS: 256 * mib},
		{name: "eval list comprehension", args: "eval --max-memory 256MiB", argv: []string{"l = [i for i in range(100000000) if i >= 0]"}, code: 1, msg: "line 1: growing a list past", maxRSS: 256 * mib},
		{name: "eval nested comprehension", args: "eval --max-memory 256MiB", argv: []string{"l = [(i, j) for i in range(100000) for j in range(1000)]"}, code: 1, msg: "memory limit of 256 MiB", maxRSS: 256 * mib},
		{name: "eval set grown in a loop", args: "eval --max-memory 256MiB", argv: []string{"s = set()\nfor i in range(100000000):\n    s.add(i)"}, code: 1, msg: "growing a set past 1703936 items", maxRSS: 256 * mib},
		{name: "eval setdefault in a loop", args: "eval --max-memory 256MiB", argv: []string{"d = {}\nfor i in range(100000000):\n    d.setdefault(i, i)"}, code: 1, msg: "growing a dict past", maxRSS: 256 * mib},
		{name: "eval dict of strings grown in a loop", args: "eval --max-memory 256MiB", argv: []string{"d = {}\nfor i in range(100000000):\n    d[str(i)] = i"}, code: 1, msg: "memory limit of 256 MiB", maxRSS: 256 * mib},
		{name: "eval dict |= in a loop", args: "eval --max-memory 256MiB", argv: []string{"d = {}\nfor i in range(100):\n    d |= {j: j for j in range(i * 500000, (i + 1) * 500000)}"}, code: 1, msg: "memory limit of 256 MiB", maxRSS: 256 * mib},
		{name: "eval small strings", args: "eval --max-memory 256MiB", argv: []string{"l = [str(i) * 10 for i in range(100000000)]"}, code: 1, msg: "memory limit of 256 MiB", maxRSS: 256 * mib},
		{name: "eval cell limit on strings", args: "eval --max-memory 1GiB", argv: []string{"limits(memory=\"128MiB\")\nl = [str(i) * 10 for i in range(100000000)]"}, code: 1, msg: "memory limit of 128 MiB", maxRSS: 128 * mib},
		{name: "eval cell limit on a dict", args: "eval --max-memory 1GiB", argv: []string{"limits(memory=\"128MiB\")\nd = {}\nfor i in range(100000000):\n    d[i] = i"}, code: 1, msg: "memory limit of 128 MiB", maxRSS: 128 * mib},
		{name: "run cell limit", args: "run nb.md --max-memory 1GiB -o out.md", files: map[string]string{"nb.md": "# Limits\n\n```nimbook\nlimits(memory=\"128MiB\")\n```\n\n```nimbook\nl = [str(i) * 10 for i in range(100000000)]\n```\n"}, code: 1, msg: "nb.md:8: cell 2: ", maxRSS: 128 * mib},
		{name: "run cell limit named as set", args: "run nb.md -o out.md", files: map[string]string{"nb.md": "```nimbook\nlimits(memory=\"256MiB\")\n```\n\n```nimbook\nx = [0] * 13000000\n```\n\n```nimbook\ny = [0] * 10000000\n```\n"}, code: 1, msg: "a list of 10000000 items needs about 152.6 MiB, more than the memory limit of 256 MiB allows", maxRSS: 256 * mib},
		{name: "eval cell limit below what is held", args: "eval", argv: []string{"limits(memory=\"10MiB\")"}, code: 1, msg: `limits: memory="10MiB" is less than the`},
		{name: "survey --check of 4.2 million variants", args: "survey s.yaml --check --max-memory 512MiB --max-variants 5000000", files: map[string]string{"s.yaml": "survey:\n  subtraction: {set: [1, 2, 3], upto: \"1..4200000\"}\nshow: [period]\n"}, code: 1, msg: "s.yaml:2: survey: the 4200000 variants that 4200000 upto make need about 8 GiB", maxRSS: 64 * mib},
		{name: "survey --check of 100000 variants", args: "survey s.yaml --check --max-memory 128MiB", files: map[string]string{"s.yaml": "survey:\n  nim: {heaps: [[1, 2], [3, 4]], upto: \"1..50000\"}\nshow: [outcome]\n"}, code: 1, msg: "the 100000 variants that 2 heaps × 50000 upto make need about 195.3 MiB", maxRSS: 64 * mib},
		{name: "survey JSON report of 20000 variants", args: "survey s.yaml --quiet --max-memory 128MiB -o r.json", files: map[string]string{"s.yaml": "survey:\n  nim: {heaps: [[1, 2], [3, 4]], upto: \"1..10000\"}\nshow: [outcome]\n"}, creates: []string{"r.json", "s.db"}, maxRSS: 128 * mib},
		{name: "survey Markdown report of 20000 variants", args: "survey s.yaml --quiet --max-memory 128MiB -o r.md", files: map[string]string{"s.yaml": "survey:\n  nim: {heaps: [[1, 2], [3, 4]], upto: \"1..10000\"}\nshow: [outcome]\n"}, creates: []string{"r.md", "s.db"}, maxRSS: 128 * mib},
		{name: "survey HTML report past the limit", args: "survey s.yaml --quiet --max-memory 128MiB -o r.html", files: map[string]string{"s.yaml": "survey:\n  nim: {heaps: [[1, 2], [3, 4]], upto: \"1..10000\"}\nshow: [outcome]\n"}, code: 1, msg: "the html report of 20000 variants needs about", creates: []string{"s.db"}, maxRSS: 128 * mib},
		// Issue 19: a misère position of Dawson's Kayles past the heaps its
		// quotient reaches went on to the generic solver, which ran past
		// SIGTERM and twice its memory limit.
		// 0.15's quotient gives up at once on these heaps and the generic
		// solver meets the limit; 0.07's tries Q_32 and Q_64 first (its
		// quotients reach heap 33 now), half a minute of work.
		{name: "misère position past the quotient", args: "run job.yaml --max-memory 256MiB --quiet -o out.json", files: map[string]string{"job.yaml": "sections:\n  - game: {octal: {code: \"0.15\", position: [1000, 900, 800, 700, 600, 500], play: misere}}\n    show: [outcome]\n"}, code: 1, msg: "stopped at the memory limit of 256 MiB", maxRSS: 256 * mib},
		{name: "misère position past the quotient, small limit", args: "run job.yaml --max-memory 64MiB --quiet -o out.json", files: map[string]string{"job.yaml": "sections:\n  - game: {octal: {code: \"0.15\", position: [1000, 900, 800, 700, 600, 500], play: misere}}\n    show: [outcome]\n"}, code: 1, msg: "stopped at the memory limit of 64 MiB", maxRSS: 64 * mib},
		{name: "time limit shorter than the first stage", args: "run job.yaml --quiet -o out.json", files: map[string]string{"job.yaml": "limits: {time: 1ns}\nsections:\n  - game: {octal: {code: \"0.6\", upto: 100000}}\n    show: [period]\n"}, code: 1, msg: "the time limit of 1ns ran out before the values to 4095"},
		{name: "time limit without a unit", args: "run job.yaml --quiet -o out.json", files: map[string]string{"job.yaml": "limits: {time: 600}\nsections:\n  - game: {octal: {code: \"0.6\", upto: 100}}\n    show: [period]\n"}, code: 1, msg: "limits.time: want a positive duration like 90s, 20m or 1h30m"},
		{name: "run four sections two at a time", args: "run job.yaml --jobs 2 --max-memory 64MiB --quiet -o out.json", files: map[string]string{"job.yaml": fourSweeps}, creates: []string{"out.json"}, maxRSS: 64 * mib},

		// Surveys: reports that would destroy an input, databases that are
		// not files, paths a Slurm script cannot carry, shard counts that
		// cannot be (issue 21).
		{name: "survey -o without an extension", args: "survey s.yaml -o report --quiet", files: sv, code: 2, msg: `-o "report": cannot tell the format`},
		{name: "survey -o with an unknown extension", args: "survey s.yaml -o report.docx --quiet", files: sv, code: 2, msg: "cannot tell the format"},
		{name: "survey -o with --format and no extension", args: "survey s.yaml -o report --format csv --quiet", files: sv, creates: []string{"report", "s.db"}},
		{name: "survey --check with -o", args: "survey s.yaml --check -o r.json", files: sv, code: 2, msg: "--check computes nothing"},
		{name: "survey -o onto the survey file", args: "survey s.yaml -o s.yaml --format json", files: sv, code: 1, msg: "s.yaml is also the input", keeps: []string{"s.yaml"}},
		{name: "survey -o onto the default database", args: "survey s.yaml -o s.db --format json", files: with(sv, "s.db", "results"), code: 1, msg: "s.db is also the input", keeps: []string{"s.db"}},
		{name: "survey -o onto --db", args: "survey s.yaml --db k.db -o k.db --format csv", files: with(sv, "k.db", "results"), code: 1, msg: "k.db is also the input", keeps: []string{"k.db"}},
		{name: "survey -o onto --known", args: "survey s.yaml --known k.db -o k.db --format json", files: with(sv, "k.db", "merged results"), code: 1, msg: "k.db is also the input", keeps: []string{"k.db"}},
		{name: "survey -o onto --known through a link", args: "survey s.yaml --known k.db -o r.json", files: with(sv, "k.db", "merged results", "r.json", "->k.db"), code: 1, msg: "r.json is the input k.db", keeps: []string{"k.db"}},
		{name: "survey -o onto the rule file", args: "survey s.yaml -o rules.star --format csv --quiet", files: rules, code: 1, msg: "rules.star is also the input", keeps: []string{"rules.star"}},
		{name: "survey -o through a dangling link", args: "survey s.yaml -o r.json --quiet", files: with(sv, "r.json", "->nodir/r.json"), code: 1, msg: "the directory nodir does not exist (r.json is a link to nodir/r.json)"},
		{name: "survey --db /dev/null", args: "survey s.yaml --db /dev/null --quiet", files: sv, code: 1, msg: "/dev/null is not a regular file (a device)"},
		{name: "survey --db a directory", args: "survey s.yaml --db d.db --quiet", files: with(sv, "d.db", "/"), code: 1, msg: "d.db is a directory"},
		{name: "survey --db in a missing directory", args: "survey s.yaml --db nodir/s.db --quiet", files: sv, code: 1, msg: "nodir/s.db: the directory nodir does not exist"},
		{name: "survey --db not a database", args: "survey s.yaml --db g.db --quiet", files: with(sv, "g.db", strings.Repeat("not SQLite ", 20)), code: 1, msg: "g.db: not an SQLite database", keeps: []string{"g.db"}},
		{name: "survey --db the survey file", args: "survey s.yaml --db s.yaml --quiet", files: sv, code: 1, msg: "--db s.yaml is the survey file", keeps: []string{"s.yaml"}},
		{name: "survey --known /dev/null", args: "survey s.yaml --known /dev/null --quiet", files: sv, code: 1, msg: "/dev/null is not a regular file"},
		{name: "survey --known not a database", args: "survey s.yaml --known g.db --quiet", files: with(sv, "g.db", strings.Repeat("x", 200)), code: 1, msg: "not an SQLite database"},
		{name: "survey merge into /dev/null", args: "survey merge /dev/null s.db", code: 1, msg: "/dev/null is not a regular file"},
		{name: "survey merge an empty directory", args: "survey merge out.db d", files: map[string]string{"d": "/"}, code: 1, msg: "the directory d holds no database"},
		{name: "survey merge a missing database", args: "survey merge out.db nope.db", code: 1, msg: "nope.db: no such database"},
		{name: "survey merge not a database", args: "survey merge out.db g.db", files: map[string]string{"g.db": strings.Repeat("x", 200)}, code: 1, msg: "g.db is not a nimbook survey database (not an SQLite database"},
		{name: "slurm newline in the survey path", args: "survey slurm --shards 2 --binary /opt/nimbook", argv: []string{nl}, files: map[string]string{nl: "@survey.yaml"}, code: 1, msg: `holds a control character (U+000A)`},
		{name: "slurm newline in --db", args: "survey slurm s.yaml --shards 2 --binary /opt/nimbook", argv: []string{"--db", "x\ntouch PWNED\n#.db"}, files: sv, code: 1, msg: "the database (--db)"},
		{name: "slurm newline in --binary", args: "survey slurm s.yaml --shards 2", argv: []string{"--binary", "/opt/nim\nbook"}, files: sv, code: 1, msg: "the nimbook binary"},
		{name: "slurm newline in an sbatch option", args: "survey slurm s.yaml --shards 2 --binary /opt/nimbook --", argv: []string{"--comment=a\ntouch PWNED"}, files: sv, code: 1, msg: "control character"},
		{name: "slurm % in --db", args: "survey slurm s.yaml --shards 2 --binary /opt/nimbook --db 100%.db", files: sv, code: 1, msg: `holds "%"`},
		{name: "slurm backslash in --db", args: `survey slurm s.yaml --shards 2 --binary /opt/nimbook --db a\b.db`, files: sv, code: 1, msg: `holds "\\"`},
		{name: "slurm a blank in --db", args: "survey slurm s.yaml --shards 2 --binary /opt/nimbook", argv: []string{"--db", "x y.db"}, files: sv, out: "y.db.shards/%a.log'"},
		{name: "slurm a quote in the survey path", args: "survey slurm --shards 2 --binary /opt/nimbook", argv: []string{"it's.yaml"}, files: map[string]string{"it's.yaml": "@survey.yaml"}, out: `it'\''s.yaml`},
		{name: "slurm --db the survey file", args: "survey slurm s.yaml --shards 2 --binary /opt/nimbook --db s.yaml", files: sv, code: 1, msg: "--db s.yaml is the survey file", keeps: []string{"s.yaml"}},
		{name: "slurm a billion shards", args: "survey slurm s.yaml --shards 1000000000 --binary /opt/nimbook", files: sv, code: 1, msg: "MaxArraySize", maxRSS: 100 * mib, maxTime: 10 * time.Second},
		{name: "slurm a million shards", args: "survey slurm s.yaml --shards 1000000 --binary /opt/nimbook", files: sv, code: 1, msg: "give --shards", maxRSS: 100 * mib, maxTime: 10 * time.Second},
		{name: "slurm over the cluster's MaxArraySize", args: "survey slurm s.yaml --shards 5 --binary /opt/nimbook", files: with(sv, "slurm.conf", "MaxArraySize=4\n"), env: []string{"SLURM_CONF=slurm.conf"}, code: 1, msg: "MaxArraySize = 4 tasks here (slurm.conf)"},
		{name: "slurm more shards than variants", args: "survey slurm s.yaml --shards 50 --binary /opt/nimbook", files: with(sv, "slurm.conf", "MaxArraySize=100\n"), env: []string{"SLURM_CONF=slurm.conf"}, code: 1, msg: "s.yaml has 7 variants"},
		{name: "slurm as many shards as variants", args: "survey slurm s.yaml --shards 7 --binary /opt/nimbook", files: sv, out: "--array=0-6"},

		// Rule files and misère analyses inside every limit, cells that
		// read no other file, inputs never overwritten (issue 29; the
		// class in brackets). Peak memory is held to the limit plus 10 %.
		{name: "rule file /dev/zero [1]", args: "run job.yaml --max-memory 256MiB", files: map[string]string{"job.yaml": ruleJob("/dev/zero", "values", 10)}, code: 1, msg: "/dev/zero: not a Starlark file", maxRSS: 100 * mib},
		{name: "rule file linked to /dev/zero [1]", args: "run job.yaml", files: map[string]string{"zero.star": "->/dev/zero", "job.yaml": ruleJob("zero.star", "values", 10)}, code: 1, msg: "zero.star: a link to zero, which is not a Starlark file", maxRSS: 100 * mib},
		{name: "rule file a FIFO [1]", args: "run job.yaml", files: map[string]string{"fifo.star": "|", "job.yaml": ruleJob("fifo.star", "values", 10)}, code: 1, msg: "fifo.star: a FIFO (named pipe), not a Starlark file", maxTime: 10 * time.Second},
		{name: "rule file a directory [1]", args: "run job.yaml", files: map[string]string{"d.star": "/", "job.yaml": ruleJob("d.star", "values", 10)}, code: 1, msg: "d.star: a folder, not a Starlark file"},
		{name: "rule file too large [1]", args: "run job.yaml", files: map[string]string{"big.star": strings.Repeat("#", 2<<20), "job.yaml": ruleJob("big.star", "values", 10)}, code: 1, msg: "more than the 1048576 a Starlark file may have"},
		{name: "rule file of another kind [1, 3]", args: "run job.yaml", files: map[string]string{"secret.env": secret, "job.yaml": ruleJob("secret.env", "values", 10)}, code: 1, msg: "secret.env: not a Starlark file", never: "s3cr3t"},
		{name: "cell reads a secret [3]", args: "eval", argv: []string{`rule(file="secret.env", name="f")`}, files: map[string]string{"secret.env": secret}, code: 1, msg: "secret.env: not a Starlark file", never: "s3cr3t"},
		{name: "cell reads a secret through a .star link [3]", args: "eval", argv: []string{`rule(file="evil.star", name="f")`}, files: map[string]string{"secret.env": secret, "evil.star": "->secret.env"}, code: 1, msg: "evil.star: a link to secret.env, which is not a Starlark file", never: "s3cr3t"},
		{name: "cell reads a .star above its folder [3]", args: "run nb/nb.md -o out.md", files: map[string]string{"up.star": secret, "nb/nb.md": "```nimbook\nrule(file=\"../up.star\", name=\"f\")\n```\n"}, code: 1, msg: "../up.star: outside the notebook's folder", never: "s3cr3t"},
		{name: "cell reads an absolute path [3]", args: "eval", argv: []string{`rule(file="/etc/passwd.star", name="f")`}, code: 1, msg: "/etc/passwd.star: outside the notebook's folder"},
		{name: "cell reads a FIFO [1, 3]", args: "eval", argv: []string{`rule(file="fifo.star", name="f")`}, files: map[string]string{"fifo.star": "|"}, code: 1, msg: "fifo.star: a FIFO", maxTime: 10 * time.Second},
		{name: "cell reads a rule of its folder [3]", args: "eval", argv: []string{`[rule(file="rules/take.star", name="take", params={"k": 2}).grundy(n) for n in range(6)]`}, files: map[string]string{"rules/take.star": star}, out: "[0, 1, 2, 0, 1, 2]"},
		{name: "-o onto the rule file a cell loads [4]", args: "run nb.md -o rules.star --format md", files: map[string]string{"rules.star": star, "nb.md": "```nimbook\nrule(file=\"rules.star\", name=\"take\", params={\"k\": 2}).grundy(5)\n```\n"}, code: 1, msg: "is the input", keeps: []string{"rules.star"}},
		{name: "--export through a link onto the rule file [4]", args: "run job.yaml -o out.md --export ex --quiet", files: with(rules, "ex/s01-values.csv", "->../rules.star"), code: 1, msg: "rules.star", keeps: []string{"rules.star"}},
		{name: "rule file's top level past the memory limit [7]", args: "run job.yaml --max-memory 128MiB", files: map[string]string{"mem.star": "x = [\"a\" * 100000 + str(i) for i in range(8000)]\n" + star, "job.yaml": ruleJob("mem.star", "values", 10)}, code: 1, msg: "mem.star:1: the code stopped at the memory limit of 128 MiB", maxRSS: 141 * mib},
		{name: "rule file's top level never ends [7]", args: "run job.yaml", files: map[string]string{"loop.star": star + "x = 0\nwhile True:\n    x = -x\n", "job.yaml": ruleJob("loop.star", "values", 10)}, code: 1, msg: "loop.star:4: ran past the budget"},
		{name: "rule's parameter copied past the limit [8]", args: "eval --max-memory 256MiB", argv: []string{"def f(n, k):\n    return [[n - 1]] if n else []\nrule(f, k=list(range(10000000)))"}, code: 1, msg: "rule: copying k (10000000 values)", maxRSS: 282 * mib},
		{name: "runaway rule call [9]", args: "run job.yaml", files: map[string]string{"loop.star": "def take(n, k):\n    while True:\n        pass\n", "job.yaml": ruleJob("loop.star", "values", 10)}, code: 1, msg: "ran past the budget of 100000000 steps", maxTime: 30 * time.Second},
		{name: "runaway rule call past --max-steps [9]", args: "run job.yaml --max-steps 1000000", files: map[string]string{"loop.star": "def take(n, k):\n    while True:\n        pass\n", "job.yaml": ruleJob("loop.star", "values", 10)}, code: 1, msg: "ran past the budget of 1000000 steps", maxTime: 5 * time.Second},
		{name: "runaway rule in a misère genus [2, 9]", args: "run job.yaml", files: map[string]string{"loop.star": "def take(n, k):\n    while True:\n        pass\n", "job.yaml": ruleJob("loop.star", "genus", 10)}, code: 1, msg: "ran past the budget of 100000000 steps", maxTime: 30 * time.Second},
		{name: "failing rule in a misère quotient [2]", args: "run job.yaml", files: map[string]string{"bad.star": "def take(n, k):\n    return [[n - 1]] if n < 5 else fail(\"no\")\n", "job.yaml": misereJob("bad.star", "quotient", 10)}, code: 1, msg: "bad.star:2: fail: no"},
		{name: "huge positions limit, tiny quotient [10]", args: "run job.yaml --format json", files: map[string]string{"rules.star": star, "job.yaml": "limits: {positions: 9223372036854775807}\n" + misereJob("rules.star", "quotient", 5)}, out: `"quotient"`},
		{name: "deep recursion in a rule [11]", args: "run job.yaml --max-memory 128MiB", files: map[string]string{"deep.star": "def r(n):\n    return 0 if n == 0 else 1 + r(n - 1)\ndef take(n, k):\n    r(10000000)\n    return []\n", "job.yaml": ruleJob("deep.star", "values", 5)}, code: 1, msg: "a recursion", maxRSS: 141 * mib},
		{name: "deep recursion in a cell [11]", args: "eval --max-memory 128MiB", argv: []string{"r = lambda n: 0 if n == 0 else 1 + r(n - 1)\nr(10000000)"}, code: 1, msg: "a recursion", maxRSS: 141 * mib},
		{name: "misère position of 1010 heaps [also]", args: "run job.yaml --quiet", files: map[string]string{"job.yaml": "sections:\n  - game: {octal: {code: \"0.15\", position: [" + manyHeaps() + "], play: misere}}\n    show: [outcome]\n"}, code: 1, msg: "the misère position of 1010 heaps (the largest 1000) reaches more than 10^18 positions", maxOut: 1000, maxTime: 10 * time.Second},
		{name: "limits.time bounds a rule's genus [also]", args: "run job.yaml --quiet", files: map[string]string{"slow.star": "def take(n, k):\n    x = 0\n    for i in range(3000000):\n        x += i\n    return [[n - 1]] if n else []\n", "job.yaml": "limits: {time: 1s}\n" + ruleJob("slow.star", "genus", 100)}, code: 1, msg: "the time limit of 1s (limits.time) ran out"},
		{name: "game file /dev/zero [1]", args: "run job.yaml --max-memory 256MiB", files: map[string]string{"job.yaml": gameJob("/dev/zero")}, code: 1, msg: "/dev/zero: not a Starlark file", maxRSS: 100 * mib, maxTime: 10 * time.Second},
		{name: "game file linked to /dev/zero [1]", args: "run job.yaml", files: map[string]string{"zero.star": "->/dev/zero", "job.yaml": gameJob("zero.star")}, code: 1, msg: "zero.star: a link to zero, which is not a Starlark file", maxRSS: 100 * mib, maxTime: 10 * time.Second},
		{name: "game file a FIFO [1]", args: "run job.yaml", files: map[string]string{"fifo.star": "|", "job.yaml": gameJob("fifo.star")}, code: 1, msg: "fifo.star: a FIFO (named pipe), not a Starlark file", maxTime: 10 * time.Second},
		{name: "game file a directory [1]", args: "run job.yaml", files: map[string]string{"d.star": "/", "job.yaml": gameJob("d.star")}, code: 1, msg: "d.star: a folder, not a Starlark file"},
		{name: "game file of another kind [1, 3]", args: "run job.yaml", files: map[string]string{"secret.env": secret, "job.yaml": gameJob("secret.env")}, code: 1, msg: "secret.env: not a Starlark file", never: "s3cr3t"},
		{name: "game file a .star link to a secret [1, 3]", args: "run job.yaml", files: map[string]string{"secret.env": secret, "evil.star": "->secret.env", "job.yaml": gameJob("evil.star")}, code: 1, msg: "evil.star: a link to secret.env, which is not a Starlark file", never: "s3cr3t"},
		{name: "survey of a game file that is a FIFO [1]", args: "survey s.yaml -o s.md", files: map[string]string{"fifo.star": "|", "s.yaml": "survey:\n  starlark: {file: fifo.star, name: g, params: {n: \"1..3\"}}\nshow: [value]\n"}, code: 1, msg: "fifo.star: a FIFO", maxTime: 10 * time.Second},
		{name: "play a FIFO [1]", args: "play fifo.star", stdin: "quit\n", files: map[string]string{"fifo.star": "|"}, code: 1, msg: "fifo.star: a FIFO (named pipe), not a Starlark file", maxTime: 10 * time.Second},
		{name: "play a folder [1]", args: "play d.star", stdin: "quit\n", files: map[string]string{"d.star": "/"}, code: 1, msg: "d.star: a folder, not a Starlark file"},
		{name: "play a .star link to /dev/zero [1]", args: "play zero.star", stdin: "quit\n", files: map[string]string{"zero.star": "->/dev/zero"}, code: 1, msg: "zero.star: a link to zero, which is not a Starlark file", maxRSS: 100 * mib, maxTime: 10 * time.Second},
		{name: "play a .star link to a secret [1, 3]", args: "play evil.star", stdin: "quit\n", files: map[string]string{"secret.env": secret, "evil.star": "->secret.env"}, code: 1, msg: "evil.star: a link to secret.env", never: "s3cr3t"},
		{name: "-o onto the game file a job reads [4]", args: "run job.yaml -o g.star --format md", files: map[string]string{"g.star": gameStar, "job.yaml": gameJob("g.star")}, code: 1, msg: "g.star", keeps: []string{"g.star"}},
		{name: "a game file's game [1]", args: "run job.yaml --format json", files: map[string]string{"g.star": gameStar, "job.yaml": gameJob("g.star")}, out: `"value"`},
		{name: "date that is no day [also]", args: "run job.yaml --date 2026-13-45", files: ok, code: 2, msg: "--date 2026-13-45: no such day"},
		{name: "stale temporary files of a killed write [also]", args: "run job.yaml -o out.md --quiet", files: with(ok, ".out.md.tmp12345", "half a report", ".out.md.tmpnot-ours", "kept"), creates: []string{"out.md"}, gone: []string{".out.md.tmp12345"}},

		// Play.
		{name: "play no game", args: "play", code: 2, msg: "play needs a game"},
		{name: "play unknown game", args: "play chess", code: 2, msg: `unknown game "chess"`},
		{name: "play huge Wythoff", args: "play wythoff --position 100000000,100000000 --seed 1", stdin: "hint\nboth 1\nquit\n", out: "winning move", maxRSS: 200 * mib},
		{name: "play huge misère Wythoff", args: "play wythoff --misere --position 100000000,100000000", code: 1, msg: "--max-positions", maxRSS: 200 * mib},
		{name: "play Wythoff past --max-positions", args: "play wythoff --misere --position 100,100 --max-positions 1000", code: 1, msg: "limit of 1000 positions"},
		{name: "play negative move", args: "play nim --heaps 2,2 --seed 1", stdin: "-1 -1\nquit\n", msg: "never negative"},
		{name: "play heap too large", args: "play nim --heaps 99999999999", code: 1, msg: "heaps hold 0 to"},
		{name: "play beginner on a huge heap", args: "play nim --heaps 2000000000,5 --level beginner --first computer --seed 3", stdin: "quit\n", maxRSS: 200 * mib},
		{name: "play max-positions 0", args: "play nim --max-positions 0", code: 2, msg: "at least 1"},
		{name: "play --save onto the input", args: "play job.yaml --save job.yaml", files: ok, code: 1, msg: "job.yaml is also the input"},
		{name: "play --save into a missing directory", args: "play nim --save nodir/game.yaml", code: 1, msg: "nodir does not exist"},
		{name: "play escapes from a Starlark file", args: "play $T/escape.star --seed 1", stdin: "quit\n", msg: `\x1b]0;pwned\x07`},
		{name: "play escapes in a job title", args: "play job.yaml#1 --seed 1 --save game.yaml", files: map[string]string{"job.yaml": "@escape-title.yaml"}, stdin: "1 1\nquit\n", creates: []string{"game.yaml"}},
		{name: "play missing job file", args: "play nope.yaml", code: 1, msg: "nope.yaml: no such file"},
		// --save names a file nimbook run can analyse, and what is typed
		// is echoed and quoted in bounded pieces (issue 21).
		{name: "play --save .txt", args: "play nim --save x.txt", code: 2, msg: "--save x.txt: a game is saved as a job file", out: ""},
		{name: "play --save without an extension", args: "play nim --save game", code: 2, msg: "write --save game.yaml"},
		{name: "play --save .md for a heap game", args: "play nim --save game.md", code: 2, msg: "write --save game.yaml"},
		{name: "play --save .json for a job's game", args: "play job.yaml#1 --save game.json", files: ok, code: 2, msg: "write --save game.yaml"},
		{name: "play --save .yml", args: "play nim --heaps 1 --seed 1 --save game.yml", stdin: "1 1\n", out: "analyse it with: nimbook run game.yml", creates: []string{"game.yml"}},
		{name: "play --save .YAML", args: "play nim --heaps 1 --seed 1 --save game.YAML", stdin: "1 1\n", out: "nimbook run game.YAML", creates: []string{"game.YAML"}},
		{name: "play --save .yaml for a Starlark game", args: "play $T/escape.star --save game.yaml", code: 2, msg: "write --save game.md"},
		{name: "play a 20 MB line", args: "play nim --heaps 2,2 --seed 1", stdin: strings.Repeat("1", 20<<20) + "\nquit\n", out: "a line of 20971520 bytes is longer than any move", maxRSS: 100 * mib, maxOut: 4096},
		{name: "play a 20 MB line of escapes", args: "play nim --heaps 2,2 --seed 1", stdin: strings.Repeat("\x1b[2J", 4<<20) + "\nquit\n", out: "longer than any move", maxRSS: 100 * mib, maxOut: 8192},
		{name: "play a 20 MB line without a newline", args: "play wythoff --seed 1", stdin: strings.Repeat("a 1 ", 5<<20), out: "longer than any move", maxRSS: 100 * mib, maxOut: 4096},
		{name: "play a long line", args: "play nim --heaps 2,2 --seed 1", stdin: strings.Repeat("x", 3000) + "\nquit\n", out: strings.Repeat("x", 200) + "…\n", maxOut: 2048},
		{name: "play a long move", args: "play wythoff --seed 1", stdin: "both " + strings.Repeat("9", 4000) + "\nquit\n", out: "…\" is too large", maxOut: 2048},
		{name: "play a long negative number", args: "play nim --heaps 2,2 --seed 1", stdin: "-" + strings.Repeat("7", 4000) + "\nquit\n", out: "never negative", maxOut: 2048},
		{name: "play a long line at the end", args: "play nim --heaps 1 --seed 1", stdin: "1 1\n" + strings.Repeat("u", 10000) + "\n", out: "Game over", maxOut: 2048},

		// The kernel's connection file (hostile messages on its sockets are
		// explore/kernel's tests: frames, signatures, control, output).
		{name: "kernel open address without a key", args: "kernel --connection-file c.json", files: map[string]string{"c.json": `{"ip":"0.0.0.0","transport":"tcp","key":"","signature_scheme":"hmac-sha256","shell_port":0,"iopub_port":0,"stdin_port":0,"control_port":0,"hb_port":0}`}, code: 1, msg: "anyone there could run code"},
		{name: "kernel broken connection file", args: "kernel --connection-file c.json", files: map[string]string{"c.json": `{"ip":`}, code: 1, msg: "c.json"},
		{name: "kernel unknown transport", args: "kernel --connection-file c.json", files: map[string]string{"c.json": `{"ip":"127.0.0.1","transport":"udp","key":"k","signature_scheme":"hmac-sha256","shell_port":0,"iopub_port":0,"stdin_port":0,"control_port":0,"hb_port":0}`}, code: 1, msg: `transport "udp" is not supported`},
		{name: "kernel unknown signature scheme", args: "kernel --connection-file c.json", files: map[string]string{"c.json": `{"ip":"127.0.0.1","transport":"tcp","key":"k","signature_scheme":"hmac-md5","shell_port":0,"iopub_port":0,"stdin_port":0,"control_port":0,"hb_port":0}`}, code: 1, msg: "want hmac-sha256"},
		{name: "kernel missing connection file", args: "kernel --connection-file nope.json", code: 1, msg: "nope.json"},
		{name: "kernel without a connection file", args: "kernel", code: 2, msg: "kernel"},
	}
}

// ruleJob is a job of one section of the rule take of file, showing
// show.
func ruleJob(file, show string, upto int) string {
	return fmt.Sprintf("sections:\n  - game: {rule: {file: %s, name: take, params: {k: 2}, upto: %d}}\n    show: [%s]\n", file, upto, show)
}

// gameStar is a game file: a heap from which a move takes one.
const gameStar = "def g(n):\n    return game(moves=lambda p: [p - 1] if p else [], start=n)\n"

// gameJob is a job of one section, the value of g(n = 3) of the game file
// file.
func gameJob(file string) string {
	return fmt.Sprintf("sections:\n  - game: {starlark: {file: %s, name: g, params: {n: 3}}}\n    show: [value]\n", file)
}

// manyHeaps is a position of 1010 heaps: ten of each size 500, 505, …,
// 1000.
func manyHeaps() string {
	var hs []string
	for range 10 {
		for h := 500; h <= 1000; h += 5 {
			hs = append(hs, fmt.Sprint(h))
		}
	}
	return strings.Join(hs, ", ")
}

// misereJob is ruleJob in misère play.
func misereJob(file, show string, upto int) string {
	return fmt.Sprintf("sections:\n  - game: {rule: {file: %s, name: take, params: {k: 2}, upto: %d, play: misere}}\n    show: [%s]\n", file, upto, show)
}

func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := e2e.Binary(t)
	hostile, err := filepath.Abs(filepath.Join("testdata", "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, v := range tc.files {
				p := filepath.Join(dir, name)
				var err error
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				switch {
				case v == "/":
					err = os.MkdirAll(p, 0o755)
				case v == "|":
					err = syscall.Mkfifo(p, 0o644)
				case strings.HasPrefix(v, "->"):
					err = os.Symlink(v[2:], p)
				case strings.HasPrefix(v, "@"):
					var b []byte
					if b, err = os.ReadFile(filepath.Join(hostile, v[1:])); err == nil {
						err = os.WriteFile(p, b, 0o644)
					}
				default:
					err = os.WriteFile(p, []byte(v), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(filepath.Base(name), ".") && !strings.HasPrefix(v, "->") {
					// A hidden file is a leftover of an earlier run: hours old.
					old := time.Now().Add(-2 * time.Hour)
					if err := os.Chtimes(p, old, old); err != nil {
						t.Fatal(err)
					}
				}
			}
			before := listDir(t, dir)
			kept := map[string]string{}
			for _, f := range tc.keeps {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				kept[f] = string(b)
			}
			args := strings.Fields(strings.ReplaceAll(tc.args, "$T", hostile))
			args = append(args, tc.argv...)
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), tc.env...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			limit := tc.maxTime
			if limit == 0 {
				limit = 30 * time.Second
			}
			// The limit is of processor time; the clock's time only
			// guards against a hang, with room for a loaded machine.
			guard := max(e2e.HangGuard, 4*limit)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var hung atomic.Bool // the guard killed it
			timer := time.AfterFunc(guard, func() {
				hung.Store(true)
				cmd.Process.Kill()
			})
			stopRSS := e2e.WatchRSS(cmd.Process.Pid)
			err := cmd.Wait()
			rss := stopRSS()
			timer.Stop()
			if hung.Load() {
				t.Fatalf("still running after %v: killed", guard)
			}
			if cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(); cpu >= limit {
				t.Errorf("ran %v of processor time, limit %v", cpu, limit)
			}
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			where := stderr.String()
			if strings.HasPrefix(tc.args, "play") {
				where = stdout.String() + stderr.String()
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(where, tc.msg) {
				t.Errorf("message %q not in\n%s", tc.msg, where)
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("%q not in standard output\n%s", tc.out, stdout.String())
			}
			// Nothing the user gave reaches the terminal raw, nor any Go
			// internals.
			if strings.ContainsAny(stderr.String(), "\x1b\x07\u009b\ufffd") {
				t.Errorf("a control character reached standard error: %q", stderr.String())
			}
			if strings.HasPrefix(tc.args, "play") && strings.ContainsAny(stdout.String(), "\x1b\x07") {
				t.Errorf("a control character reached the game's output: %q", stdout.String())
			}
			for _, bad := range []string{"context canceled", "goroutine ", "panic:", "Limits.", ".tmp"} {
				if strings.Contains(stderr.String(), bad) {
					t.Errorf("standard error shows %q: %s", bad, stderr.String())
				}
			}
			if tc.never != "" && strings.Contains(stdout.String()+stderr.String(), tc.never) {
				t.Errorf("the output quotes %q:\n%s%s", tc.never, stdout.String(), stderr.String())
			}
			after := listDir(t, dir)
			for _, f := range after {
				if !slices.Contains(before, f) && !slices.Contains(tc.creates, strings.SplitN(f, "/", 2)[0]) {
					t.Errorf("left behind: %s", f)
				}
			}
			for _, f := range tc.gone {
				if slices.Contains(after, f) {
					t.Errorf("%s is still there", f)
				}
			}
			for f, was := range kept {
				if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || string(b) != was {
					t.Errorf("%s was changed or removed (%v)", f, err)
				}
			}
			if n := stdout.Len() + stderr.Len(); tc.maxOut > 0 && n > tc.maxOut {
				t.Errorf("%d bytes of output, want at most %d", n, tc.maxOut)
			}
			if tc.maxRSS > 0 && rss > tc.maxRSS {
				t.Errorf("peak memory %d MiB, want at most %d MiB", rss/mib, tc.maxRSS/mib)
			}
		})
	}
}

// listDir lists every file under dir, as paths relative to it.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}
