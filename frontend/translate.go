package frontend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// translator builds the IR program of one entry point.
type translator struct {
	l     *Loaded
	p     *ir.Program
	stack []*ssa.Function // functions being inlined, innermost last
	// scopes are the prefixes of the inlined functions' locals (see
	// ir.Var.Scope).
	scopes map[string]bool
	txs    int // transactions and connections so far (ids 1…)
	// conns are the ids of single connections (*sql.Conn, pgx.Conn, …),
	// on which BEGIN, COMMIT and ROLLBACK may be sent as SQL text.
	conns map[ir.Tx]bool
	// savepoints: the savepoint name each handle uses (savepoint.go).
	savepoints map[ir.Tx]string
	cur        ir.Loc    // where the next edge starts
	pos        token.Pos // position of the instruction being translated
	// reach: the blocks each block reaches (see looporder.go).
	reach map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool

	globals map[*ssa.Global]*cell
	// times: the number bound for a time.Time value, by its fields
	// (timeArg).
	times map[[2]ir.Expr]*ir.Var
	// clocks: the instant of a time.Time computed from time.Now(), by its
	// fields; lastClock the ghost holding the last instant read (clock.go).
	clocks    map[[2]ir.Expr]ir.Expr
	lastClock *ir.Var
	sentinels []*ir.Var // package-level error variables: non-nil
	markers   []ir.Expr // values of numbers formatted into SQL (see strings.go)
	// zeroSplices: SQL texts fmt.Sprintf made with the zero value "" of a
	// constant string field spliced in (constfields.go).
	zeroSplices map[string]bool
	// opaqueTexts: the strings the model does not compute (a
	// concatenation of unknown parts), by variable, with where they are
	// made (see lockKeyApprox).
	opaqueTexts map[*ir.Var]string
	// prefixedDecimals: those of them that are a constant prefix and an
	// integer's decimal text (exactLockKey).
	prefixedDecimals map[*ir.Var]prefixedDecimal
	// argNulls: the NULL-ness of the placeholders of the library call
	// being translated that are bound to nullable values (nullargs.go;
	// sqlArgs sets it, runSQL takes it).
	argNulls map[int]ir.Expr
	// argUnsigned: the placeholders of that call bound to Go unsigned
	// integers (unsignedargs.go; sqlArgs sets it, runSQL takes it).
	argUnsigned map[int]bool
	// argFloat: the placeholders of that call bound to Go floats
	// (floatnan.go; sqlArgs sets it, runSQL takes it).
	argFloat map[int]bool

	// Elements read from input slices: the read instructions (with their
	// positions) and the element cells, per slice (see inputElement).
	elemSites map[*object]map[ssa.Instruction]string
	elemCells map[*object][]*cell
	// collections are the slices filled by appends whose one element the
	// model follows (collected.go), if follow.
	collections []*collection
	follow      bool
	// typeIDs numbers the receiver types of dispatched implementations
	// (see dispatch).
	typeIDs map[string]int
	// inputTypes: the ghost variables numbering the dynamic types of
	// interface inputs (dyntypes.go), arbitrary on entry.
	inputTypes []*ir.Var
	// elemReads: the first read of each (slice, index value), shared by
	// later reads of the same element (see sameElement); writeEpoch counts
	// the translated operations that may write slice elements.
	elemReads  map[elemKey]elemRead
	writeEpoch int

	// httpFailed is a handler entry's "answered an error status" flag
	// (httpfail.go; nil: not a handler).
	httpFailed *ir.Var

	overflowNoted bool // the no-overflow assumption is recorded
	// enforcementNoted: a setting that switches engine enforcement off
	// was looked for (enforcement.go).
	enforcementNoted bool
	noOverflow       bool // integer arithmetic is mathematical (see Translate)
	floatNoted       bool // the exact-floats (or rounded-floats) assumption is recorded
	rounding         bool // float results are rounded (see floatround.go)

	// Cells whose pointer the model lost (see escape.go), in order.
	escaped      []*cell
	escapedCells map[*cell]bool

	frames       []*frame // inlined frames, innermost last (see panics.go)
	panicking    *ir.Var  // ghost: a panic is unwinding (nil: no panic modelled)
	nextDeferred bool     // the next inlined frame is a deferred call
	// pure holds the results of pure library calls fixed for the run,
	// runConst the variables fixed for the run, pureNoted the functions
	// whose assumption is recorded (pure.go).
	pure      map[pureKey]value
	runConst  map[*ir.Var]bool
	runMaps   map[*object]bool
	pureNoted map[string]bool
	// queryValues: the url.Values objects r.URL.Query() returned
	// (httpinputs.go).
	queryValues map[*object]bool
	// dialect is the dialect of the entry's SQL: the program's, or the one
	// of the handles it runs SQL on (dialectOpen, see useSiteDialect).
	dialect     sqlparse.Dialect
	dialectOpen *driverOpen
	// nan: the "is NaN" flags of floats (floatnan.go).
	nan nanState
}

// parse parses SQL text in the entry's dialect.
func (t *translator) parse(text string) (sqlir.Statement, error) { return t.l.parseIn(t.dialect, text) }

// frame is one inlined activation of a function.
type frame struct {
	fn      *ssa.Function
	env     map[ssa.Value]value
	start   map[*ssa.BasicBlock]ir.Loc
	end     map[*ssa.BasicBlock]ir.Loc
	ret     ir.Loc
	results []*ir.Var // scalar result variables (nil for non-scalars)
	objRes  []value   // non-scalar results, merged over the returns
	objSet  []bool
	// structRes lists the struct results, whose objRes holds one variable
	// per scalar field (see structResult).
	structRes []int
	// resTypes: the dynamic types of interface results (dyntypes in
	// dispatch.go; nil entries for the other results).
	resTypes []*resultTypes
	// structObj merges the non-scalar fields of struct results over the
	// returns, by field path (the first value, or opaque if they differ).
	structObj map[string]value
	texts     [][]string // string results: the constants returned (nil: unknown)
	textOK    []bool
	// errs: error results, the join of the returned errors' tags (errSet:
	// one was returned).
	errs    []*errTag
	errSet  []bool
	defers  []*deferRec
	pending []pendingDefers
	names   map[ssa.Value]string
	prefix  string

	// unwind is where the frame's unwinding code starts (unwinds: some
	// panic reaches it); deferred says the frame is a deferred call, whose
	// recover() can stop a panic.
	unwind   ir.Loc
	unwinds  bool
	deferred bool
	// loseOnDefine: values merged by an opaque φ before they were
	// defined; their pointers are lost once they are (see escape.go).
	loseOnDefine map[ssa.Value]bool
	rowsRes      []*rowsChoice // the rows a result may be, per return (retrows.go)
	// phiSel: the selector of a φ of pointers (see choicePhi).
	phiSel map[*ssa.Phi]*ir.Var
	// phiType: the variable numbering the dynamic type of an interface φ
	// (see typedPhi).
	phiType map[*ssa.Phi]*ir.Var
	// dead: the blocks a Go constant condition cuts off (deadblocks.go),
	// not translated.
	dead map[*ssa.BasicBlock]bool
	// errPhis: the per-path identity variables of error φs (errpaths.go).
	errPhis map[*ssa.Phi]*errTag
	// errSlicePhis: the summary variables of []error φs (errjoin.go).
	errSlicePhis map[*ssa.Phi]*errTag
	// errRes: the per-path identity variables of error results (nil
	// where none).
	errRes []*errTag
	// fieldPhis: the φs of nullable values whose fields are variables
	// assigned on the incoming edges (see nullablePhi).
	fieldPhis map[*ssa.Phi]bool
	// block is the basic block of the frame being translated (nil after
	// its blocks: deferred calls, unwinding).
	block *ssa.BasicBlock
}

type deferRec struct {
	instr  *ssa.Defer
	flag   *ir.Var
	callee value
	args   []value
	done   bool // the defer statement has been translated
}

// Translate builds the IR program of entry fn. Constructs it cannot model
// soundly are listed in the program's Unsupported.
//
// Integer arithmetic wraps around as in Go (see intwrap.go) in an entry
// without loops; in an entry with one it is mathematical, an assumption
// the program states: the ranges of wrapped values multiply the
// predicates a loop invariant is sought among (booking's Promote: 277 SMT
// queries with mathematical integers, past the work limit with wrapping).
func (l *Loaded) Translate(fn *ssa.Function) *ir.Program {
	noOverflow := l.cfg.AssumeNoOverflow
	p := l.translate(fn, noOverflow, false)
	if !noOverflow && p.HasCycle() {
		p = l.translate(fn, true, false)
	}
	return p
}

// TranslateWrapped is fn translated with Go's integer wrap-around when
// exact, its program from Translate, has mathematical integers only
// because it has a loop (nil otherwise): a SAFE on exact rests on the
// no-overflow assumption, which this program does not make.
func (l *Loaded) TranslateWrapped(fn *ssa.Function, exact *ir.Program) *ir.Program {
	if l.cfg.AssumeNoOverflow || !exact.HasCycle() {
		return nil
	}
	return l.translate(fn, false, false)
}

// translate translates fn, with mathematical integers if noOverflow, and
// float results rounded if rounding (floatround.go), following an element
// of each slice a loop collects (collected.go).
func (l *Loaded) translate(fn *ssa.Function, noOverflow, rounding bool) *ir.Program {
	return l.translateWith(translation{fn: fn, noOverflow: noOverflow, rounding: rounding, follow: true})
}

// A translation is what a program is translated from, and how.
type translation struct {
	fn                   *ssa.Function
	noOverflow, rounding bool
	// follow: follow an element of each collected slice (collected.go).
	follow bool
}

func (l *Loaded) translateWith(tr translation) *ir.Program {
	fn := tr.fn
	t := &translator{l: l, p: ir.NewProgram(EntryName(fn)), dialect: l.Dialect, noOverflow: tr.noOverflow, rounding: tr.rounding, follow: tr.follow}
	file, line := l.position(fn.Pos())
	t.p.Pos = ir.Info{File: file, Line: line, Kind: ir.KindCall, Text: "func " + fn.Name()}
	t.cur = t.p.Entry
	t.pos = fn.Pos()
	args := make([]value, len(fn.Params))
	for i, prm := range fn.Params {
		args[i] = t.input(prm.Name(), prm.Type(), 0)
	}
	var bindings []value
	for _, fv := range fn.FreeVars {
		b := t.input(fv.Name(), fv.Type(), 0)
		t.markCaptured(fn, fv, b)
		bindings = append(bindings, b)
	}
	t.inline(fn, args, bindings)
	t.edge(t.p.Exit, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, "")})
	t.resolveNaN()
	t.markScopes()
	var inputs []*ir.Var
	params := map[*ir.Var]bool{}
	for _, v := range t.p.Inputs {
		params[v] = true // (havocked by the row model's prologue, before the --assume facts)
	}
	for _, v := range t.p.Vars {
		if v.Kind == ir.Input && !params[v] {
			inputs = append(inputs, v)
		}
	}
	inputs = append(inputs, t.inputTypes...)
	if len(inputs) > 0 {
		// Inputs (parameters and what they reach) are arbitrary on entry:
		// an explicit havoc lets the abstraction start from consistent
		// values of predicates that relate them.
		entry := t.p.NewLoc()
		t.p.AddEdge(entry, t.p.Entry, &ir.Havoc{Vars: inputs, Info: ir.Info{Kind: ir.KindModel, Text: "inputs are arbitrary"}})
		t.p.Entry = entry
	}
	if t.panicking != nil {
		// No panic is unwinding on entry.
		entry := t.p.NewLoc()
		t.p.AddEdge(entry, t.p.Entry, &ir.Assign{Lhs: []*ir.Var{t.panicking}, Rhs: []ir.Expr{ir.False}, Info: ir.Info{Kind: ir.KindModel, Text: "no panic on entry"}})
		t.p.Entry = entry
	}
	if len(t.sentinels) > 0 {
		// Package-level error variables hold sentinel errors: non-nil.
		entry := t.p.NewLoc()
		rhs := make([]ir.Expr, len(t.sentinels))
		for i := range rhs {
			rhs[i] = ir.True
		}
		t.p.AddEdge(entry, t.p.Entry, &ir.Assign{Lhs: t.sentinels, Rhs: rhs, Info: ir.Info{Kind: ir.KindModel, Text: "sentinel errors are non-nil"}})
		t.p.Entry = entry
	}
	if len(t.collections) > 0 {
		if l.following == nil {
			l.following = map[*ir.Program]translation{}
		}
		l.following[t.p] = tr
	}
	return t.p
}

// Unfollowed returns the program p translated again without following an
// element of the slices a loop collects (collected.go), its reads of them
// approximations; nil when p follows none. The following's ghost state
// multiplies a search (booking/promote_waitlist_safe: 41,746 SMT queries
// where 2,526 decide it): a verdict on the unfollowed program, which
// over-approximates p's reads and whose approximations never reach an
// UNSAFE, stands, and only an UNKNOWN there needs p.
func (l *Loaded) Unfollowed(p *ir.Program) *ir.Program {
	tr, ok := l.following[p]
	if !ok {
		return nil
	}
	tr.follow = false
	return l.translateWith(tr)
}

// noteStrings records the string constants of fn for traces
// (ir.Program.Strings).
func (t *translator) noteStrings(fn *ssa.Function) {
	if t.p.Strings == nil {
		t.p.Strings = map[string]string{}
	}
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(ops[:0]) {
				if c, ok := (*op).(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
					s := constant.StringVal(c.Value)
					if _, num := ir.CanonicalInt(s); !num { // coded as the number itself
						t.p.Strings[ir.StringCode(s).V.String()] = s
					}
				}
			}
		}
	}
}

// info describes the instruction being translated: the Go statement that
// holds it, at the line where the statement starts, its text (a
// statement written over several lines on one line) unless text is
// given (the SQL a database call runs).
func (t *translator) info(kind ir.StepKind, text string) ir.Info {
	file, line := t.l.position(t.pos)
	if !t.pos.IsValid() {
		return ir.Info{File: file, Line: line, Kind: kind, Text: text}
	}
	line, stmt := t.l.stmtAt(t.pos)
	if text == "" {
		text = stmt
	}
	name := t.l.Fset.Position(t.pos).Filename
	if text == "" {
		text = t.l.lineText(name, line)
	}
	return ir.Info{File: file, Line: line, Kind: kind, Text: text, Generated: t.l.generatedFile(name)}
}

// edge adds an edge from the current location to `to` and moves there.
func (t *translator) edge(to ir.Loc, s ir.Stmt) {
	t.p.AddEdge(t.cur, to, s)
	t.cur = to
}

// emit adds s on a new edge.
func (t *translator) emit(s ir.Stmt) {
	markSQLErr(s)
	t.edge(t.p.NewLoc(), ir.WithDB(s))
}

func (t *translator) unsupported(format string, args ...any) {
	t.p.Unsupport(fmt.Sprintf(format, args...), t.info("", ""))
}

// inline translates a call of fn at the current location and returns its
// result; afterwards t.cur is where execution continues.
func (t *translator) inline(fn *ssa.Function, args, bindings []value) value {
	for _, g := range t.stack {
		if g == fn {
			t.unsupported("recursive call of %s", fn.Name())
			return t.fresh(fn.Name()+"()", fn.Signature.Results())
		}
	}
	if len(t.stack) >= t.l.cfg.MaxInline {
		t.unsupported("call depth limit %d reached at %s", t.l.cfg.MaxInline, fn.Name())
		return t.fresh(fn.Name()+"()", fn.Signature.Results())
	}
	t.stack = append(t.stack, fn)
	defer func() { t.stack = t.stack[:len(t.stack)-1] }()
	t.noteStrings(fn)

	f := &frame{
		fn: fn, env: map[ssa.Value]value{},
		start: map[*ssa.BasicBlock]ir.Loc{}, end: map[*ssa.BasicBlock]ir.Loc{}, dead: map[*ssa.BasicBlock]bool{},
		ret: t.p.NewLoc(), names: debugNames(fn),
		deferred: t.nextDeferred,
	}
	t.nextDeferred = false
	t.frames = append(t.frames, f)
	defer func() { t.frames = t.frames[:len(t.frames)-1] }()
	if len(t.stack) > 1 {
		f.prefix = fn.Name() + "."
		if fn.Parent() != nil {
			f.prefix = fn.Parent().Name() + "$func."
		}
		if t.scopes == nil {
			t.scopes = map[string]bool{}
		}
		t.scopes[f.prefix] = true
	}
	for i, prm := range fn.Params {
		if i < len(args) {
			f.env[prm] = args[i]
		}
	}
	for i, fv := range fn.FreeVars {
		if i < len(bindings) {
			f.env[fv] = bindings[i]
		}
	}
	res := t.setupResults(f, fn)
	if len(t.stack) == 1 { // the entry's own error results
		for i := 0; i < res.Len(); i++ {
			if isError(res.At(i).Type()) {
				t.p.ErrResults = append(t.p.ErrResults, f.results[i])
			}
		}
		t.handlerFailFlag(fn)
	}
	if fn.Blocks == nil {
		t.unsupported("function %s has no body", fn.Name())
		return t.fresh(fn.Name()+"()", res)
	}
	// Defer flags start false.
	t.initDefers(f)
	for _, b := range fn.Blocks {
		f.start[b] = t.p.NewLoc()
	}
	t.edge(f.start[fn.Blocks[0]], &ir.Assume{Cond: ir.True, Info: t.info(ir.KindCall, "")})
	for _, b := range blockOrder(fn) {
		if t.deadBlock(f, b) {
			f.dead[b] = true
			continue
		}
		t.block(f, b)
	}
	f.block = nil
	for _, b := range fn.Blocks {
		if !f.dead[b] {
			t.terminator(f, b)
		}
	}
	t.fillDefers(f)
	t.emitUnwind(f)
	t.cur = f.ret
	var out []value
	for i := 0; i < res.Len(); i++ {
		if f.results[i] != nil {
			v := value{expr: f.results[i]}
			if f.textOK[i] && len(f.texts[i]) > 0 && len(f.texts[i]) <= maxAlts {
				v.alts = dedupeStrings(f.texts[i])
			}
			if f.errSet[i] {
				v.err = f.errs[i]
			}
			if f.errRes[i] != nil {
				v.err = f.errRes[i]
			}
			out = append(out, v)
		} else if f.isStructRes(i) {
			out = append(out, f.structOut(fmt.Sprint(i), f.objRes[i]))
		} else {
			out = append(out, f.resTypes[i].apply(f.objRes[i]))
		}
	}
	switch len(out) {
	case 0:
		return value{}
	case 1:
		return out[0]
	}
	return value{tuple: out}
}

// setupResults makes the variables of fn's results in frame f: one per
// scalar result, one per scalar field of a struct result; it returns
// fn's results.
func (t *translator) setupResults(f *frame, fn *ssa.Function) *types.Tuple {
	res := fn.Signature.Results()
	f.results = make([]*ir.Var, res.Len())
	f.objRes = make([]value, res.Len())
	f.objSet = make([]bool, res.Len())
	f.texts = make([][]string, res.Len())
	f.textOK = make([]bool, res.Len())
	f.errs = make([]*errTag, res.Len())
	f.errSet = make([]bool, res.Len())
	f.resTypes = make([]*resultTypes, res.Len())
	f.errRes = make([]*errTag, res.Len())
	for i := range f.textOK {
		f.textOK[i] = isString(res.At(i).Type())
	}
	t.setupRowsResults(f, fn)
	for i := 0; i < res.Len(); i++ {
		if s, ok := sortOf(res.At(i).Type()); ok {
			name := res.At(i).Name()
			if name == "" {
				name = fmt.Sprintf("ret%d", i)
			}
			f.results[i] = t.p.NewVar(fn.Name()+"."+name, s, ir.Local)
			f.results[i].Err = isError(res.At(i).Type())
			if f.results[i].Err {
				f.errRes[i] = t.identityVars(f.results[i].Name)
			}
		} else if st, ok := res.At(i).Type().Underlying().(*types.Struct); ok {
			// A struct result: one variable per scalar field, assigned at
			// every return (like a scalar result).
			name := res.At(i).Name()
			if name == "" {
				name = fmt.Sprintf("ret%d", i)
			}
			f.objRes[i], f.objSet[i] = t.structResult(fn.Name()+"."+name, st, 0), true
			f.structRes = append(f.structRes, i)
		} else if types.IsInterface(res.At(i).Type()) && !t.stackInLoop() {
			f.resTypes[i] = &resultTypes{v: t.p.NewVar(fmt.Sprintf("%s.ret%d$type", fn.Name(), i), ir.Int, ir.Ghost), known: true}
		}
	}
	return res
}

// block translates the instructions of b up to its terminator.
func (t *translator) block(f *frame, b *ssa.BasicBlock) {
	t.cur = f.start[b]
	f.block = b
	for _, instr := range b.Instrs {
		if instr.Pos().IsValid() {
			t.pos = instr.Pos()
		}
		switch instr := instr.(type) {
		case *ssa.Phi:
			t.phi(f, instr)
			t.errSlicePhi(f, instr)
		case *ssa.If, *ssa.Jump:
			// edges in terminator
		case *ssa.RunDefers:
			t.runDefersLater(f, instr.Pos())
		case *ssa.Return:
			t.ret(f, instr)
		case *ssa.Panic:
			t.panicHere("panic")
		default:
			t.instr(f, instr)
		}
		if v, ok := instr.(ssa.Value); ok && f.loseOnDefine[v] {
			t.lose(f.env[v])
		}
	}
	f.end[b] = t.cur
}

func (t *translator) nameOf(f *frame, v ssa.Value) string {
	if n, ok := f.names[v]; ok {
		return n
	}
	if a, ok := v.(*ssa.Alloc); ok && a.Comment != "" && !strings.ContainsAny(a.Comment, " ()") {
		if syntheticAlloc(a) {
			// A composite literal's or a new(T)'s own memory, before it
			// reaches a variable: no name a user wrote (hidden).
			return "$" + a.Comment
		}
		return a.Comment
	}
	return v.Name()
}

// userNamed reports whether nameOf(f, v) is a name the source gives v (a
// Go local), not its SSA register's.
func userNamed(f *frame, v ssa.Value) bool {
	if _, ok := f.names[v]; ok {
		return true
	}
	a, ok := v.(*ssa.Alloc)
	return ok && a.Comment != "" && !strings.ContainsAny(a.Comment, " ()") && !syntheticAlloc(a)
}

// syntheticAlloc reports whether a is memory go/ssa allocates for a
// construct, not a variable: a composite literal, new(T), variadic
// arguments, a range loop's counter.
func syntheticAlloc(a *ssa.Alloc) bool {
	switch a.Comment {
	case "complit", "slicelit", "varargs", "new", "makeslice", "rangeindex", "rangeint.iter":
		return true
	}
	return false
}

// peek returns the value of v if it is already known, without emitting.
func (t *translator) peek(f *frame, v ssa.Value) (value, bool) {
	switch v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Global:
		return t.val(f, v), true
	}
	x, ok := f.env[v]
	return x, ok
}

// terminator adds the edges leaving block b (If and Jump), with the
// φ-assignments of the successor.
func (t *translator) terminator(f *frame, b *ssa.BasicBlock) {
	if len(b.Instrs) == 0 {
		return
	}
	last := b.Instrs[len(b.Instrs)-1]
	t.cur = f.end[b]
	switch last := last.(type) {
	case *ssa.Jump:
		t.pos = lastPos(b)
		t.phiMoves(f, b, b.Succs[0])
	case *ssa.If:
		t.pos = condPos(last, b)
		cond := asBool(t.val(f, last.Cond).expr)
		from := t.cur
		outcomes := branchOutcomes(b)
		for i, c := range []ir.Expr{cond, ir.Not(cond)} {
			t.cur = from
			info := t.info(ir.KindBranch, "")
			info.Outcome = outcomes[i]
			t.emit(&ir.Assume{Cond: c, Info: info})
			t.phiMoves(f, b, b.Succs[i])
		}
	}
}

func asBool(e ir.Expr) ir.Expr {
	if e == nil {
		return ir.True
	}
	return e
}

// sortedKeys is a helper for deterministic iteration.
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
