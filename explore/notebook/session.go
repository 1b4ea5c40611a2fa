package notebook

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// DefaultMaxSteps is the step budget of one cell when Options.MaxSteps is
// zero: a few seconds to a minute of Starlark, far more than any sensible
// cell needs, so that a runaway loop stops on its own.
const DefaultMaxSteps = sandbox.DefaultMaxSteps

// DefaultMaxPositions bounds the positions of a user-defined game (and of a
// sum) when Options.MaxPositions is zero.
const DefaultMaxPositions = 1_000_000

// Renderer turns a result into a rich Jupyter MIME bundle. cmd/nimbook
// implements it with the reports package (Markdown, HTML tables with the
// P-positions marked, SVG plots), so that notebooks and reports share their
// renderers. Bundle receives a *job.SectionResult whose Spec.Show names the
// one analysis the result holds; it returns (nil, nil) for a value it does not
// render. The session adds a text/plain fallback to whatever it returns.
type Renderer interface {
	Bundle(v any) (*kernel.Display, error)
}

// FigureRenderer is a Renderer that draws the figures of some values (a
// survey's) as displays of their own, shown before the value's bundle,
// which then need not hold them (a bundle holds one image).
type FigureRenderer interface {
	Figures(v any) ([]*kernel.Display, error)
}

// Options configure a Session. The zero value is usable.
type Options struct {
	// Renderer, when not nil, renders results as rich MIME bundles; without
	// it results display as text/plain and application/json.
	Renderer Renderer
	// MaxSteps is the Starlark step budget of one cell; 0 means
	// DefaultMaxSteps. A cell may lower it with limits(steps=N), never
	// raise it: MaxSteps, MaxPositions and Limits are the session's
	// ceilings (the command line's --max-steps, --max-positions and
	// --max-memory).
	MaxSteps uint64
	// MaxPositions bounds the positions of user-defined games and sums; 0
	// means DefaultMaxPositions.
	MaxPositions int
	// Limits bound the built-in analyses as in a job file; zero fields
	// mean job.DefaultLimits. Limits.Memory is also the memory a cell may
	// use: a watchdog stops a cell that crosses it.
	Limits job.Limits
	// Dir is the notebook's folder: the only folder (with those below it)
	// whose .star files its cells may read, and the folder relative
	// file names are taken from. "" means the working directory.
	Dir string
}

// Session evaluates notebook cells in Starlark, keeping globals between
// cells like a Jupyter kernel. It implements kernel.Executor. A Session is
// not safe for concurrent use (the kernel runs one cell at a time).
type Session struct {
	opts    Options
	ceil    ceiling // the limits opts started with: cells may only lower them
	globals starlark.StringDict
	count   int // cells executed, for the file names of positions

	lastValue *starlark.Value  // when set, Execute stores the cell's value there
	now       func() time.Time // the clock of %time; nil: time.Now
	cpu       func() cpuTime   // the CPU clock of %time; nil: processCPU
}

var _ kernel.Executor = (*Session)(nil)

// fileOptions is the dialect of cells, the sandbox's.
var fileOptions = sandbox.FileOptions()

// New returns a Session with the built-ins in its globals.
func New(opts Options) (*Session, error) {
	if opts.MaxPositions < 0 {
		return nil, fmt.Errorf("notebook: negative position budget %d", opts.MaxPositions)
	}
	if opts.Limits.Positions < 0 || opts.Limits.Memory < 0 {
		return nil, errors.New("notebook: negative limits")
	}
	ceil := newCeiling(&opts)
	s := &Session{opts: opts, ceil: ceil, globals: starlark.StringDict{}}
	for name, b := range builtins() {
		s.globals[name] = b
	}
	return s, nil
}

// Globals returns the names defined by the user's cells, sorted (built-ins
// that were not reassigned are left out).
func (s *Session) Globals() []string {
	bs := builtins()
	var names []string
	for name, v := range s.globals {
		if b, ok := bs[name]; ok && b == v {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// userDefined tells whether a cell has defined one of the names.
func (s *Session) userDefined(names ...string) bool {
	for _, n := range names {
		if _, ok := s.globals[n]; ok {
			return true
		}
	}
	return false
}

// Info describes Starlark for kernel_info.
func (s *Session) Info() kernel.LanguageInfo {
	return kernel.LanguageInfo{
		Name:              "starlark",
		Version:           "1.0",
		MIMEType:          "text/x-python",
		FileExtension:     ".star",
		PygmentsLexer:     "python",
		CodeMirrorMode:    "python",
		NbconvertExporter: "python",
	}
}

// thread-local keys
const (
	localSession = "nimbook.session"
	localCtx     = "nimbook.ctx"
	localOut     = "nimbook.out"
)

// Execute runs one cell: every statement in order; when the last statement
// is an expression, its value is the cell's result (None gives no result).
// As in IPython, a cell that is only name? (or name??, ?name) prints the
// help of name (see Help), a cell that is only exit or quit returns
// ErrExit, and a cell may start with one of the magics %time, %%time, %who
// and %limits (magic.go).
func (s *Session) Execute(ctx context.Context, code string, out kernel.Output) (d *kernel.Display, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if out == nil {
		out = discard{}
	}
	if s.AsksExit(code) {
		return nil, ErrExit
	}
	if text, _, ok := s.Help(code); ok {
		out.Stream("stdout", text+"\n")
		return nil, nil
	}
	if m, ok := parseMagic(code); ok {
		return s.magic(ctx, m, out)
	}
	return s.run(ctx, code, out)
}

// run runs the code of a cell.
func (s *Session) run(ctx context.Context, code string, out kernel.Output) (d *kernel.Display, err error) {
	s.count++
	name := fmt.Sprintf("cell %d", s.count)
	f, err := fileOptions.Parse(name, code, 0)
	if err != nil {
		return nil, magicHint(code, err, s.cellError(name, err, ctx, nil))
	}
	thread, steps, stop := s.newThread(ctx, name, out)
	defer stop()
	defer func() {
		// A panic in the engine is a bug; the user still gets a short
		// message and a working session, not a Go stack trace.
		if r := recover(); r != nil {
			d, err = nil, &kernel.CellError{Name: "InternalError", Value: fmt.Sprintf("nimbook failed on this cell (%v); please report it", r)}
		}
	}()

	var last syntax.Expr
	if n := len(f.Stmts); n > 0 {
		if es, ok := f.Stmts[n-1].(*syntax.ExprStmt); ok {
			last = es.X
			f.Stmts = f.Stmts[:n-1]
		}
	}
	sandbox.Guard(f)
	if last != nil {
		last = sandbox.GuardExpr(last)
	}
	// A cell stopped at the memory limit gives back the globals it bound,
	// so that what made it too large does not stay held.
	before := maps.Clone(s.globals)
	defer func() {
		if sandbox.MemoryStopped(steps.Context()) {
			s.globals = before
		}
	}()
	if len(f.Stmts) > 0 {
		if err := starlark.ExecREPLChunk(f, thread, s.globals); err != nil {
			return nil, s.cellError(name, err, steps.Context(), steps)
		}
	}
	if last == nil {
		return nil, nil
	}
	v, err := starlark.EvalExprOptions(fileOptions, thread, last, s.globals)
	if err != nil {
		return nil, s.cellError(name, err, steps.Context(), steps)
	}
	if s.lastValue != nil {
		*s.lastValue = v
	}
	if v == starlark.None {
		return nil, nil
	}
	d, err = s.bundle(thread, v)
	if err != nil {
		return nil, s.cellError(name, err, steps.Context(), steps)
	}
	return d, nil
}

// discard is the Output of a cell run without a frontend.
type discard struct{}

func (discard) Stream(string, string)   {}
func (discard) Display(*kernel.Display) {}
func (discard) Input(string, bool) (string, error) {
	return "", errors.New("no input in this notebook")
}

// cellError turns a parse, resolve or evaluation error into what the user
// sees: the cell line and a short message, never a Go stack trace.
func (s *Session) cellError(cell string, err error, ctx context.Context, steps *sandbox.State) error {
	var se syntax.Error
	var rl resolve.ErrorList
	var ee *starlark.EvalError
	switch {
	case errors.As(err, &se):
		return &kernel.CellError{Name: "SyntaxError", Value: fmt.Sprintf("line %d: %s", se.Pos.Line, se.Msg)}
	case errors.As(err, &rl) && len(rl) > 0:
		e := rl[0]
		return &kernel.CellError{Name: "NameError", Value: fmt.Sprintf("line %d: %s", e.Pos.Line, sandbox.ResolveMsg(e.Msg))}
	case errors.As(err, &ee):
		line, where, trace := locate(cell, ee.CallStack)
		switch {
		case steps != nil && steps.Exceeded():
			msg := stepLimitMessage(steps)
			return &kernel.CellError{Name: "StepLimit", Value: withLine(line, where, msg), Traceback: traceback("StepLimit", withLine(line, where, msg), trace)}
		case ctx.Err() != nil:
			name, msg := sandbox.StoppedMessage(ctx, "the cell")
			return &kernel.CellError{Name: name, Value: withLine(line, where, msg), Traceback: traceback(name, withLine(line, where, msg), trace)}
		}
		msg := withLine(line, where, ee.Msg)
		return &kernel.CellError{Name: "Error", Value: msg, Traceback: traceback("Error", msg, trace)}
	}
	if steps != nil && steps.Exceeded() {
		return &kernel.CellError{Name: "StepLimit", Value: stepLimitMessage(steps)}
	}
	if ctx.Err() != nil {
		name, msg := sandbox.StoppedMessage(ctx, "the cell")
		return &kernel.CellError{Name: name, Value: msg}
	}
	return &kernel.CellError{Name: "Error", Value: err.Error()}
}

// locate finds the line of the cell where an error happened. When the
// innermost Starlark frame is a function of another cell, where names it.
func locate(cell string, stack starlark.CallStack) (line int, where string, trace []string) {
	var user []starlark.CallFrame
	for _, fr := range stack {
		if fn := fr.Pos.Filename(); strings.HasPrefix(fn, "cell ") {
			user = append(user, fr)
		}
	}
	for _, fr := range user {
		if fr.Pos.Filename() == cell {
			line = int(fr.Pos.Line)
		}
	}
	if n := len(user); n > 0 {
		in := user[n-1]
		if in.Pos.Filename() != cell {
			where = fmt.Sprintf("in %s, %s line %d", in.Name, in.Pos.Filename(), in.Pos.Line)
		}
	}
	if len(user) > 1 {
		for _, fr := range user {
			name := fr.Name
			if name == "<toplevel>" || name == "<expr>" {
				name = "the cell"
			}
			trace = append(trace, fmt.Sprintf("  %s, line %d, in %s", fr.Pos.Filename(), fr.Pos.Line, name))
		}
	}
	return line, where, trace
}

// stepLimitMessage says that a cell ran past its step budget.
func stepLimitMessage(steps *sandbox.State) string {
	return fmt.Sprintf("the cell ran past its budget of %d steps (a loop that never ends?); if it is meant to run longer, start nimbook with a larger %s", steps.MaxSteps(), flagSteps)
}

func withLine(line int, where, msg string) string {
	switch {
	case line > 0 && where != "":
		return fmt.Sprintf("line %d (%s): %s", line, where, msg)
	case line > 0:
		return fmt.Sprintf("line %d: %s", line, msg)
	case where != "":
		return fmt.Sprintf("%s: %s", where, msg)
	}
	return msg
}

func traceback(name, msg string, frames []string) []string {
	if len(frames) == 0 {
		return nil
	}
	out := []string{"Traceback (most recent call last):"}
	out = append(out, frames...)
	return append(out, name+": "+msg)
}

// sessionOf returns the session, context and output of a running cell.
func sessionOf(th *starlark.Thread) (*Session, context.Context, kernel.Output) {
	s, _ := th.Local(localSession).(*Session)
	ctx, _ := th.Local(localCtx).(context.Context)
	out, _ := th.Local(localOut).(kernel.Output)
	if ctx == nil {
		ctx = context.Background()
	}
	if out == nil {
		out = discard{}
	}
	if s == nil {
		s, _ = New(Options{})
	}
	return s, ctx, out
}
