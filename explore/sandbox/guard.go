package sandbox

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A Starlark thread checks for cancellation and counts its step budget
// between instructions only, so one instruction that does a lot of work
// escapes both: [0] * 1000000000 allocates 16 GB in one step, x * x on a
// huge integer multiplies for minutes, list(range(1000000000)) fills 16 GB.
// The interrupt then lands when the step is over, if the process is still
// alive.
//
// Code is therefore guarded: before it runs, Guard rewrites the operators
// and methods whose work grows with their operands (+, *, %, <<, their
// augmented forms, and the string, list, dict and set methods of
// guardedMethods) into calls of hidden built-ins (named with a "·", which
// no code can write). These estimate the memory of the result and refuse
// it when it passes what the memory limit leaves, bound the size of
// integers, and do long work in chunks that count steps and stop as soon as
// the thread is interrupted. The built-ins of the Starlark universe that
// materialise or scan an iterable (list, sorted, min...) are shadowed by
// versions that check the same way (universe.go). The memory watchdog of
// the thread (budget.Watch) stays the safety net behind these estimates.
//
// Containers that grow one element at a time escape the watchdog too: a
// dict of 1.7 million keys doubles its table in one insertion, from 114 MiB
// to 342 MiB held at once, and a list reallocates by a quarter of its
// length. So item assignment (d[k] = v) becomes a call of a hidden
// built-in, the for clauses of comprehensions iterate through counting
// iterables (compCount), and the methods that insert (append, insert,
// add, setdefault, update) come back checked: before a dict or a set
// reaches the size at which Starlark's hash table doubles (hashGrowth),
// and every few thousand elements of a large list, what the next growth
// allocates is checked against what the memory limit leaves.

// Names of the hidden built-ins the rewritten code calls.
const (
	opAdd        = "·+"
	opMul        = "·*"
	opMod        = "·%"
	opShl        = "·<<"
	opAddAssign  = "·+="  // x += y: extends a list in place
	opSetIndex   = "·[]=" // x[i] op= y
	opSetField   = "·.="  // x.f op= y
	opAttr       = "·."   // x.method, for guardedMethods
	opSetItem    = "·[]"  // x[i] = y, called with y, x, i (the order Starlark evaluates them)
	opPipe       = "·|"
	opPipeAssign = "·|="    // x |= y: updates a dict in place
	opCompFor    = "·for"   // the iterable of a comprehension's first for clause
	opCompIn     = "·in"    // the iterable of its other for clauses
	opComp       = "·comp"  // the comprehension's value, checked
	opEnter      = "·def"   // called first in every function: the memory its recursion's stack takes
	opWhile      = "·while" // a while loop's condition, at the loop's line
)

// maxIntBits bounds the integers guarded code computes: a product of two of them
// takes a few milliseconds, and printing one well under a second.
const maxIntBits = 1 << 21

// MaxText bounds the text str, repr, print and % produce in one call.
const MaxText = 64 << 20

// chunk is how many elements a built-in handles between two checks of its
// thread's interrupt and budget.
const chunk = 1 << 16

// guardedMethods are the methods of strings, lists, dicts and sets whose
// result grows with their arguments.
var guardedMethods = map[string]bool{
	"append": true, "extend": true, "join": true, "replace": true, "format": true, "split": true, "rsplit": true,
	"splitlines": true, "union": true, "update": true, "intersection": true, "difference": true,
	"symmetric_difference": true, "insert": true, "add": true, "setdefault": true,
	"items": true, "keys": true, "values": true,
}

var binaryOps = map[syntax.Token]string{syntax.PLUS: opAdd, syntax.STAR: opMul, syntax.PERCENT: opMod, syntax.LTLT: opShl, syntax.PIPE: opPipe}

var assignOps = map[syntax.Token]syntax.Token{syntax.PLUS_EQ: syntax.PLUS, syntax.STAR_EQ: syntax.STAR, syntax.PERCENT_EQ: syntax.PERCENT, syntax.LTLT_EQ: syntax.LTLT, syntax.PIPE_EQ: syntax.PIPE}

// Guard rewrites the statements of a parsed file in place, before it is
// resolved: its growing operators and methods become calls of the hidden
// built-ins of Builtins, which must be predeclared where it runs.
func Guard(f *syntax.File) {
	f.Stmts = guardStmts(f.Stmts)
}

func guardStmts(stmts []syntax.Stmt) []syntax.Stmt {
	for i, s := range stmts {
		stmts[i] = guardStmt(s)
	}
	return stmts
}

func ident(name string, pos syntax.Position) *syntax.Ident {
	return &syntax.Ident{NamePos: pos, Name: name}
}

func call(fn string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: ident(fn, pos), Lparen: pos, Args: args, Rparen: pos}
}

func strLit(s string, pos syntax.Position) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
}

func guardStmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		op, aug := assignOps[s.Op]
		s.RHS = GuardExpr(s.RHS)
		if !aug {
			if ix, ok := s.LHS.(*syntax.IndexExpr); ok && s.Op == syntax.EQ {
				// x[i] = y, which may grow a dict: y, x and i are
				// evaluated in that order, as Starlark does.
				return &syntax.ExprStmt{X: call(opSetItem, s.OpPos, s.RHS, GuardExpr(ix.X), GuardExpr(ix.Y))}
			}
			s.LHS = guardTarget(s.LHS)
			return s
		}
		switch lhs := s.LHS.(type) {
		case *syntax.Ident:
			fn := binaryOps[op]
			switch op {
			case syntax.PLUS:
				fn = opAddAssign
			case syntax.PIPE:
				fn = opPipeAssign
			}
			return &syntax.AssignStmt{OpPos: s.OpPos, Op: syntax.EQ, LHS: lhs, RHS: call(fn, s.OpPos, &syntax.Ident{NamePos: lhs.NamePos, Name: lhs.Name}, s.RHS)}
		case *syntax.IndexExpr:
			return &syntax.ExprStmt{X: call(opSetIndex, s.OpPos, GuardExpr(lhs.X), GuardExpr(lhs.Y), strLit(op.String(), s.OpPos), s.RHS)}
		case *syntax.DotExpr:
			return &syntax.ExprStmt{X: call(opSetField, s.OpPos, GuardExpr(lhs.X), strLit(lhs.Name.Name, s.OpPos), strLit(op.String(), s.OpPos), s.RHS)}
		}
		return s
	case *syntax.DefStmt:
		guardDefaults(s.Params)
		s.Body = guardStmts(s.Body)
		// ·def() first, after the docstring, which help() shows.
		at := 0
		if len(s.Body) > 0 {
			if e, ok := s.Body[0].(*syntax.ExprStmt); ok {
				if l, ok := e.X.(*syntax.Literal); ok && l.Token == syntax.STRING {
					at = 1
				}
			}
		}
		s.Body = slices.Insert(s.Body, at, syntax.Stmt(&syntax.ExprStmt{X: call(opEnter, s.Def)}))
	case *syntax.ExprStmt:
		s.X = GuardExpr(s.X)
	case *syntax.ForStmt:
		s.Vars = guardTarget(s.Vars)
		s.X = GuardExpr(s.X)
		s.Body = guardStmts(s.Body)
	case *syntax.WhileStmt:
		// ·while(cond): a loop stopped (steps, interrupt) is most often
		// stopped in this call, whose line is the loop's; a jump back has
		// none (an endless loop at a file's top level was reported at
		// line 1).
		s.Cond = call(opWhile, s.While, GuardExpr(s.Cond))
		s.Body = guardStmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = GuardExpr(s.Cond)
		s.True = guardStmts(s.True)
		s.False = guardStmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = GuardExpr(s.Result)
		}
	}
	return s
}

// guardTarget guards the expressions evaluated inside an assignment's
// target (a[i + 1] = v) but keeps the target itself.
func guardTarget(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X, e.Y = GuardExpr(e.X), GuardExpr(e.Y)
	case *syntax.DotExpr:
		e.X = GuardExpr(e.X)
	case *syntax.TupleExpr:
		guardEach(e.List, guardTarget)
	case *syntax.ListExpr:
		guardEach(e.List, guardTarget)
	case *syntax.ParenExpr:
		e.X = guardTarget(e.X)
	}
	return e
}

// guardDefaults guards the default values (p=value) of a def's or a
// lambda's parameters, which run when it is defined.
func guardDefaults(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = GuardExpr(b.Y)
		}
	}
}

// guardEach replaces each of xs by guard(x): the elements of a list or a
// tuple, as a target or as an expression.
func guardEach(xs []syntax.Expr, guard func(syntax.Expr) syntax.Expr) {
	for i, x := range xs {
		xs[i] = guard(x)
	}
}

// GuardExpr returns e with its growing operators and methods guarded, as
// Guard does for a file (for an expression evaluated on its own, such as
// the last expression of a notebook cell).
func GuardExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = GuardExpr(e.X), GuardExpr(e.Y)
		if fn, ok := binaryOps[e.Op]; ok {
			return call(fn, e.OpPos, e.X, e.Y)
		}
	case *syntax.CallExpr:
		e.Fn = GuardExpr(e.Fn)
		for i, a := range e.Args {
			switch a := a.(type) {
			case *syntax.BinaryExpr:
				if a.Op == syntax.EQ { // name=value
					a.Y = GuardExpr(a.Y)
					continue
				}
			}
			e.Args[i] = GuardExpr(a)
		}
	case *syntax.DotExpr:
		e.X = GuardExpr(e.X)
		if guardedMethods[e.Name.Name] {
			return call(opAttr, e.Dot, e.X, strLit(e.Name.Name, e.NamePos))
		}
	case *syntax.Comprehension:
		e.Body = GuardExpr(e.Body)
		// The for clauses iterate through counting iterables: the first
		// starts the comprehension's count, the last counts its elements,
		// and ·comp ends the count (and raises its refusal).
		kind := "list"
		if e.Curly {
			kind = "dict"
		}
		last := -1
		for i, c := range e.Clauses {
			if _, ok := c.(*syntax.ForClause); ok {
				last = i
			}
		}
		for i, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars = guardTarget(c.Vars)
				c.X = GuardExpr(c.X)
				counts := ""
				if i == last {
					counts = "count"
				}
				if i == 0 {
					c.X = call(opCompFor, c.For, c.X, strLit(kind, c.For), strLit(counts, c.For))
				} else {
					c.X = call(opCompIn, c.For, c.X, strLit(counts, c.For))
				}
			case *syntax.IfClause:
				c.Cond = GuardExpr(c.Cond)
			}
		}
		return call(opComp, e.Lbrack, e)
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = GuardExpr(e.Cond), GuardExpr(e.True), GuardExpr(e.False)
	case *syntax.DictExpr:
		for _, x := range e.List {
			if de, ok := x.(*syntax.DictEntry); ok {
				de.Key, de.Value = GuardExpr(de.Key), GuardExpr(de.Value)
			}
		}
	case *syntax.IndexExpr:
		e.X, e.Y = GuardExpr(e.X), GuardExpr(e.Y)
	case *syntax.LambdaExpr:
		guardDefaults(e.Params)
		// ·def() and body: ·def() is True, so the lambda's value is body's.
		e.Body = &syntax.BinaryExpr{Op: syntax.AND, OpPos: e.Lambda, X: call(opEnter, e.Lambda), Y: GuardExpr(e.Body)}
	case *syntax.ListExpr:
		guardEach(e.List, GuardExpr)
	case *syntax.TupleExpr:
		guardEach(e.List, GuardExpr)
	case *syntax.ParenExpr:
		e.X = GuardExpr(e.X)
	case *syntax.SliceExpr:
		e.X = GuardExpr(e.X)
		if e.Lo != nil {
			e.Lo = GuardExpr(e.Lo)
		}
		if e.Hi != nil {
			e.Hi = GuardExpr(e.Hi)
		}
		if e.Step != nil {
			e.Step = GuardExpr(e.Step)
		}
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = GuardExpr(e.X)
		}
	}
	return e
}

// guardBuiltins are the hidden built-ins of guarded code.
func guardBuiltins() map[string]builtinFunc {
	bin := func(op syntax.Token) builtinFunc {
		return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return guardedBinary(th, op, args[0], args[1])
		}
	}
	return map[string]builtinFunc{
		opAdd:       bin(syntax.PLUS),
		opMul:       bin(syntax.STAR),
		opMod:       bin(syntax.PERCENT),
		opShl:       bin(syntax.LTLT),
		opAddAssign: guardAddAssign,
		opSetIndex:  guardSetIndex,
		opSetField:  guardSetField,
		opAttr:      guardAttr,
		opSetItem:   guardSetItem,
		opPipe:      bin(syntax.PIPE),
		opPipeAssign: func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return augmented(th, syntax.PIPE, args[0], args[1])
		},
		opCompFor: compFor,
		opCompIn:  compIn,
		opComp:    compEnd,
		opEnter:   enter,
		opWhile: func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return args[0].Truth(), nil
		},
	}
}

// stackPerCall is about the bytes of goroutine stack one level of
// Starlark recursion takes (1.6 to 3.2 KB measured), rounded up.
const stackPerCall = 4 << 10

// enter is called first in every guarded function: every 1024 levels of
// recursion it checks that the next growth of the goroutine's stack,
// which the runtime doubles by copying, fits in what the memory limit
// leaves; the watchdog's samples would see it too late (a recursion
// peaked at 154 MiB under 128 MiB).
func enter(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if d := th.CallStackDepth(); d%1024 == 0 && d > 0 {
		if err := NeedMemory(th, fmt.Sprintf("a recursion %d calls deep", d), 2*int64(d)*stackPerCall); err != nil {
			return nil, err
		}
	}
	return starlark.True, nil
}

// intBits returns the bit length of an int.
func intBits(x starlark.Int) int {
	if v, ok := x.Int64(); ok {
		if v < 0 {
			v = -v
		}
		n := 0
		for ; v != 0; v >>= 1 {
			n++
		}
		return n
	}
	return x.BigInt().BitLen()
}

// intTooLarge refuses an integer of bits bits.
func intTooLarge(what string, bits int) error {
	return fmt.Errorf("%s would have about %d digits, more than the %d allowed (integers are bounded so that the work stays interruptible)",
		what, int(float64(bits)*math.Log10(2))+1, int(float64(maxIntBits)*math.Log10(2)))
}

// seqLen returns the length of a string, bytes, list or tuple, and the
// bytes one element takes.
func seqLen(v starlark.Value) (n int, size int64, ok bool) {
	switch v := v.(type) {
	case starlark.String:
		return len(v), 1, true
	case starlark.Bytes:
		return len(v), 1, true
	case *starlark.List:
		return v.Len(), 16, true
	case starlark.Tuple:
		return len(v), 16, true
	}
	return 0, 0, false
}

// describeSeq names a sequence of n elements of v's type, for messages.
func describeSeq(v starlark.Value, n int64) string {
	switch v.(type) {
	case starlark.String, starlark.Bytes:
		return fmt.Sprintf("a %s of %d characters", v.Type(), n)
	}
	return fmt.Sprintf("a %s of %d items", v.Type(), n)
}

// guardedBinary is x op y for +, *, % and <<, refused when its result
// would not fit.
func guardedBinary(th *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	xi, xInt := x.(starlark.Int)
	yi, yInt := y.(starlark.Int)
	if xInt && yInt {
		if _, ok := xi.Int64(); ok {
			if _, ok := yi.Int64(); ok && op != syntax.STAR && op != syntax.LTLT {
				return starlark.Binary(op, x, y)
			}
		}
		var bits int
		switch op {
		case syntax.PLUS:
			bits = max(intBits(xi), intBits(yi)) + 1
		case syntax.STAR:
			bits = intBits(xi) + intBits(yi)
		case syntax.LTLT:
			if s, ok := yi.Int64(); ok && s > 0 && s < maxIntBits {
				bits = intBits(xi) + int(s)
			}
		}
		if bits > maxIntBits {
			return nil, intTooLarge("the result of "+op.String(), bits)
		}
		return starlark.Binary(op, x, y)
	}
	switch op {
	case syntax.PIPE:
		// The union of two dicts or two sets: a new table for both.
		if hx, ok := hashLen(x); ok && x.Type() == y.Type() {
			if hy, ok := hashLen(y); ok {
				if err := NeedMemory(th, fmt.Sprintf("%s | %s of %d and %d items", x.Type(), y.Type(), hx, hy), hashNeed(0, hx+hy)); err != nil {
					return nil, err
				}
			}
		}
	case syntax.PLUS:
		nx, sx, okx := seqLen(x)
		ny, _, oky := seqLen(y)
		if okx && oky && x.Type() == y.Type() {
			n := int64(nx) + int64(ny)
			if err := NeedMemory(th, describeSeq(x, n), n*sx); err != nil {
				return nil, err
			}
		}
	case syntax.STAR:
		seq, count := x, y
		if _, _, ok := seqLen(y); ok && xInt {
			seq, count = y, x
		}
		if n, size, ok := seqLen(seq); ok {
			c, isInt := count.(starlark.Int)
			k, small := c.Int64()
			if isInt && small && k > 0 && k <= math.MaxInt32 && n > 0 && int64(n)*k < 1<<30 {
				return repeat(th, seq, n, size, k)
			}
		}
	case syntax.PERCENT:
		if f, ok := x.(starlark.String); ok {
			need := int64(len(f)) + int64(strings.Count(string(f), "%"))*ReprSize(y, MaxText)
			if need > MaxText {
				return nil, fmt.Errorf("%%: the formatted text would be about %d characters long, more than the %d allowed at once", need, MaxText)
			}
			shown, err := shownArgs(th, y)
			if err != nil {
				return nil, err
			}
			y = shown
		}
	}
	return starlark.Binary(op, x, y)
}

// repeat is seq * k, done in chunks.
func repeat(th *starlark.Thread, seq starlark.Value, n int, size int64, k int64) (starlark.Value, error) {
	total := int64(n) * k
	if err := NeedMemory(th, describeSeq(seq, total), total*size); err != nil {
		return nil, err
	}
	switch s := seq.(type) {
	case starlark.String:
		r, err := repeatString(th, string(s), int(k))
		return starlark.String(r), err
	case starlark.Bytes:
		r, err := repeatString(th, string(s), int(k))
		return starlark.Bytes(r), err
	}
	var elems []starlark.Value
	switch s := seq.(type) {
	case *starlark.List:
		elems = make([]starlark.Value, n)
		for i := range elems {
			elems[i] = s.Index(i)
		}
	case starlark.Tuple:
		elems = s
	}
	res := make([]starlark.Value, total)
	x := copy(res, elems)
	step := max(n, chunk/n*n) // a whole number of copies of elems
	for x < len(res) {
		c := copy(res[x:], res[:min(x, step)])
		x += c
		if err := Tick(th, c); err != nil {
			return nil, err
		}
	}
	if _, ok := seq.(starlark.Tuple); ok {
		return starlark.Tuple(res), nil
	}
	return starlark.NewList(res), nil
}

func repeatString(th *starlark.Thread, s string, k int) (string, error) {
	var b strings.Builder
	b.Grow(len(s) * k)
	per := max(1, chunk*16/len(s))
	for i := 0; i < k; i++ {
		b.WriteString(s)
		if i%per == per-1 {
			if err := Tick(th, per); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

// guardAddAssign is x += y, which extends a list in place.
func guardAddAssign(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return augmented(th, syntax.PLUS, args[0], args[1])
}

func augmented(th *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if d, ok := x.(*starlark.Dict); ok && op == syntax.PIPE {
		if yd, ok := y.(*starlark.Dict); ok {
			// d |= y updates d in place, as Starlark does.
			if err := NeedMemory(th, fmt.Sprintf("growing a dict of %d items by %d", d.Len(), yd.Len()), hashNeed(d.Len(), d.Len()+yd.Len())); err != nil {
				return nil, err
			}
			if yd == d {
				return d, nil // every key is there with its value
			}
			i := 0
			for k, v := range yd.Entries() {
				if err := d.SetKey(k, v); err != nil {
					return nil, fmt.Errorf("cannot apply |= to %s", strings.TrimPrefix(err.Error(), "cannot insert into "))
				}
				if i++; i%chunk == 0 {
					if err := Tick(th, chunk); err != nil {
						return nil, err
					}
				}
			}
			return d, nil
		}
	}
	if l, ok := x.(*starlark.List); ok && op == syntax.PLUS {
		if it, ok := y.(starlark.Iterable); ok {
			if err := extend(th, l, it); err != nil {
				return nil, err
			}
			return l, nil
		}
	}
	return guardedBinary(th, op, x, y)
}

// extend appends the elements of it to l, within the budgets.
func extend(th *starlark.Thread, l *starlark.List, it starlark.Iterable) error {
	n := starlark.Len(it)
	if n > 0 {
		// Growing a list copies it into a new array, the old one alive
		// for a moment: by a quarter more, when a few elements at a time
		// go past a multiple of 4096 (as append is checked), or to the new
		// length beside the old.
		old, total := int64(l.Len()), int64(l.Len())+int64(n)
		need := 2 * total * 16
		if int64(n) < old/4 {
			need = 0
			if total >= 1<<16 && total/4096 != old/4096 {
				need = total * 16 * 5 / 4
			}
		}
		if err := NeedMemory(th, describeSeq(l, total), need); err != nil {
			return err
		}
	}
	switch it.(type) {
	case *starlark.List, starlark.Tuple:
		// One copy, which Starlark's own extend does (l += l included).
		m, err := attr(l, "extend")
		if err != nil {
			return err
		}
		_, err = starlark.Call(th, m, starlark.Tuple{it}, nil)
		return err
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for i := 1; iter.Next(&x); i++ {
		if err := checkListGrowth(th, l.Len()); err != nil {
			return err
		}
		if err := l.Append(x); err != nil {
			return err
		}
		if i%chunk == 0 {
			if err := Tick(th, chunk); err != nil {
				return err
			}
		}
	}
	return nil
}

var opTokens = map[string]syntax.Token{"+": syntax.PLUS, "*": syntax.STAR, "%": syntax.PERCENT, "<<": syntax.LTLT, "|": syntax.PIPE}

// guardSetIndex is x[i] op= y.
func guardSetIndex(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, i, op, y := args[0], args[1], opTokens[string(args[2].(starlark.String))], args[3]
	old, err := getIndex(x, i)
	if err != nil {
		return nil, err
	}
	v, err := augmented(th, op, old, y)
	if err != nil {
		return nil, err
	}
	return starlark.None, setIndex(x, i, v)
}

// getIndex is x[i] as the interpreter reads it.
func getIndex(x, i starlark.Value) (starlark.Value, error) {
	switch x := x.(type) {
	case starlark.Mapping:
		v, found, err := x.Get(i)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("key %v not in %s", i, x.Type())
		}
		return v, nil
	case starlark.Indexable:
		n := x.Len()
		k, err := index(i, n, x.Type())
		if err != nil {
			return nil, err
		}
		return x.Index(k), nil
	}
	return nil, fmt.Errorf("unhandled index operation %s[%s]", x.Type(), i.Type())
}

func index(i starlark.Value, n int, typ string) (int, error) {
	var k int
	if err := starlark.AsInt(i, &k); err != nil {
		return 0, fmt.Errorf("%s index: got %s, want int", typ, i.Type())
	}
	orig := k
	if k < 0 {
		k += n
	}
	if k < 0 || k >= n {
		return 0, fmt.Errorf("%s index %d out of range [%d:%d]", typ, orig, -n, n-1)
	}
	return k, nil
}

// setIndex is x[i] = v as the interpreter writes it.
func setIndex(x, i, v starlark.Value) error {
	switch x := x.(type) {
	case starlark.HasSetKey:
		return x.SetKey(i, v)
	case starlark.HasSetIndex:
		k, err := index(i, x.Len(), x.Type())
		if err != nil {
			return err
		}
		return x.SetIndex(k, v)
	}
	return fmt.Errorf("%s value does not support item assignment", x.Type())
}

// guardSetField is x.f op= y.
func guardSetField(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, name, op, y := args[0], string(args[1].(starlark.String)), opTokens[string(args[2].(starlark.String))], args[3]
	old, err := attr(x, name)
	if err != nil {
		return nil, err
	}
	v, err := augmented(th, op, old, y)
	if err != nil {
		return nil, err
	}
	sf, ok := x.(starlark.HasSetField)
	if !ok {
		return nil, fmt.Errorf("can't assign to .%s field of %s", name, x.Type())
	}
	return starlark.None, sf.SetField(name, v)
}

// attr is x.name as the interpreter finds it.
func attr(x starlark.Value, name string) (starlark.Value, error) {
	if ha, ok := x.(starlark.HasAttrs); ok {
		v, err := ha.Attr(name)
		if err != nil || v != nil {
			return v, err
		}
	}
	return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
}

// guardAttr is x.name for a name of guardedMethods: the method of a
// string, list, dict or set comes back checked.
func guardAttr(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, name := args[0], string(args[1].(starlark.String))
	v, err := attr(x, name)
	if err != nil {
		return nil, err
	}
	m, ok := v.(*starlark.Builtin)
	if !ok {
		return v, nil
	}
	switch x.(type) {
	case starlark.String, *starlark.List, *starlark.Dict, *starlark.Set:
	default:
		return v, nil
	}
	switch x := x.(type) {
	case *starlark.List:
		if (name == "append" || name == "insert") && (x.Len() < 1<<16 || x.Len()%4096 != 0) {
			// Lists grow unchecked, at full speed, but for a check now
			// and then of a large one (checkListGrowth).
			return v, nil
		}
	case *starlark.Dict:
		if name == "setdefault" && hashGrowth(x.Len()) < 1<<20 {
			return v, nil // no growth of the table that counts
		}
		if (name == "items" || name == "keys" || name == "values") && x.Len() < 1<<14 {
			return v, nil // lists of less than a MiB
		}
	case *starlark.Set:
		if name == "add" && hashGrowth(x.Len()) < 1<<20 {
			return v, nil
		}
	}
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := checkMethod(th, x, name, args, kwargs); err != nil {
			return nil, err
		}
		if l, ok := x.(*starlark.List); ok && name == "extend" && len(args) == 1 && len(kwargs) == 0 {
			if it, ok := args[0].(starlark.Iterable); ok {
				return starlark.None, extend(th, l, it)
			}
		}
		if _, ok := x.(starlark.String); ok && name == "format" {
			return format(th, m, args, kwargs)
		}
		return starlark.Call(th, m, tickingArgs(th, args), kwargs)
	}).BindReceiver(x), nil
}

// checkMethod estimates the memory of a method's result.
func checkMethod(th *starlark.Thread, x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	what := fmt.Sprintf("%s.%s()", x.Type(), name)
	s, isString := x.(starlark.String)
	var need int64
	switch {
	case isString && name == "join" && len(args) == 1:
		if n := starlark.Len(args[0]); n > 1 {
			need = int64(len(s)) * int64(n-1)
		}
	case isString && name == "replace" && len(args) >= 2:
		old, ok1 := args[0].(starlark.String)
		new, ok2 := args[1].(starlark.String)
		if ok1 && ok2 && len(new) > len(old) {
			occ := int64(len(s)) + 1
			if old != "" {
				occ = int64(strings.Count(string(s), string(old)))
			}
			need = int64(len(s)) + occ*int64(len(new)-len(old))
		}
	case isString && name == "format":
		var most int64
		for _, a := range args {
			most = max(most, ReprSize(a, MaxText))
		}
		for _, kv := range kwargs {
			most = max(most, ReprSize(kv[1], MaxText))
		}
		need = int64(len(s)) + int64(strings.Count(string(s), "{"))*most
		if need > MaxText {
			return fmt.Errorf("format: the text would be about %d characters long, more than the %d allowed at once", need, MaxText)
		}
	case name == "append" || name == "insert":
		// A list grown one element at a time reallocates by a quarter of
		// its length: a large one checks, now and then, that the next
		// copy fits (the watchdog alone may see it too late on a busy
		// machine).
		if l, ok := x.(*starlark.List); ok {
			return checkListGrowth(th, l.Len())
		}
		return nil
	case name == "add" || name == "setdefault":
		// One key more: checked when the table is about to double, and
		// the key is new.
		n, ok := hashLen(x)
		if !ok || len(args) == 0 {
			return nil
		}
		g := hashGrowth(n)
		if g < 1<<20 {
			return nil
		}
		var found bool
		switch x := x.(type) {
		case *starlark.Set:
			found, _ = x.Has(args[0])
		case *starlark.Dict:
			_, found, _ = x.Get(args[0])
		}
		if found {
			return nil
		}
		return NeedMemory(th, fmt.Sprintf("growing a %s past %d items", x.Type(), n), g)
	case name == "items" || name == "keys" || name == "values":
		// A new list of every entry (items: of pairs).
		if d, ok := x.(*starlark.Dict); ok {
			per := int64(16)
			if name == "items" {
				per += 64
			}
			need = int64(d.Len()) * per
			what = fmt.Sprintf("dict.%s() of %d items", name, d.Len())
		}
	case name == "update" || name == "union" || name == "symmetric_difference" || name == "intersection" || name == "difference":
		// Dicts and sets: update grows the table in place, the others
		// make a new one.
		n, ok := hashLen(x)
		if !ok {
			break
		}
		more := 0
		for _, a := range args {
			if m := starlark.Len(a); m > 0 {
				more += m
			}
		}
		more += len(kwargs)
		switch name {
		case "update":
			need = hashNeed(n, n+more)
			what = fmt.Sprintf("growing a %s of %d items by %d", x.Type(), n, more)
		case "union", "symmetric_difference":
			need = hashNeed(0, n+more)
			what = fmt.Sprintf("%s.%s() of %d and %d items", x.Type(), name, n, more)
		default:
			need = hashNeed(0, n)
			what = fmt.Sprintf("%s.%s() of %d items", x.Type(), name, n)
		}
	case isString && (name == "split" || name == "rsplit" || name == "splitlines"):
		pieces := int64(len(s))/2 + 1
		if name == "splitlines" {
			pieces = int64(strings.Count(string(s), "\n")) + 1
		} else if len(args) > 0 {
			if sep, ok := args[0].(starlark.String); ok && sep != "" {
				pieces = int64(strings.Count(string(s), string(sep))) + 1
			}
		}
		need = pieces * 32
	default:
		for _, a := range args {
			if n := starlark.Len(a); n > 0 {
				need += int64(n) * 64
			}
		}
	}
	return NeedMemory(th, what, need)
}

// ReprSize estimates the length of v's text (as str or repr writes it),
// stopping once it passes limit; containers are walked, once per path (a list that contains itself
// prints as [...]).
func ReprSize(v starlark.Value, limit int64) int64 {
	var total int64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if total > limit {
			return
		}
		if depth > 100 {
			total += 5
			return
		}
		switch v := v.(type) {
		case starlark.String:
			total += int64(len(v)) + 2
		case starlark.Bytes:
			total += int64(len(v)) + 3
		case starlark.Int:
			total += int64(float64(intBits(v))*math.Log10(2)) + 2
		case starlark.Tuple:
			total += 2
			for _, x := range v {
				walk(x, depth+1)
				total += 2
			}
		case *starlark.List:
			total += 2
			for i := 0; i < v.Len() && total <= limit; i++ {
				walk(v.Index(i), depth+1)
				total += 2
			}
		case *starlark.Dict:
			total += 2
			for _, kv := range v.Items() {
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
				total += 4
				if total > limit {
					return
				}
			}
		case *starlark.Set:
			total += 5
			iter := v.Iterate()
			var x starlark.Value
			for iter.Next(&x) && total <= limit {
				walk(x, depth+1)
				total += 2
			}
			iter.Done()
		case starlark.NoneType, starlark.Bool, starlark.Float:
			total += 24
		default:
			total += int64(len(v.String()))
		}
	}
	walk(v, 0)
	return total
}

// format is str.format with its container arguments replaced by their
// text (shownArg).
func format(th *starlark.Thread, m *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	shown := make(starlark.Tuple, len(args))
	for i, a := range args {
		v, err := shownArg(th, a, "format")
		if err != nil {
			return nil, err
		}
		shown[i] = v
	}
	kw := make([]starlark.Tuple, len(kwargs))
	for i, kv := range kwargs {
		v, err := shownArg(th, kv[1], "format")
		if err != nil {
			return nil, err
		}
		kw[i] = starlark.Tuple{kv[0], v}
	}
	return starlark.Call(th, m, shown, kw)
}
