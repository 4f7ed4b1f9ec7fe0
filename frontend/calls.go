package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// call translates a call and returns its result. args, when not nil, are
// the already evaluated arguments (a deferred call); otherwise they are
// evaluated now.
func (t *translator) call(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, pre *deferRec) value {
	var callee value
	var args []value
	if pre != nil {
		callee, args = pre.callee, pre.args
	} else {
		callee = t.val(f, c.Value)
		for _, a := range c.Args {
			args = append(args, t.val(f, a))
		}
	}
	if c.IsInvoke() {
		return t.invoke(f, instr, c, callee, args)
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return t.builtin(f, b, c, args)
	}
	if fn, ok := c.Value.(*ssa.Function); ok {
		if spawnsArgument(fn) && len(args) == 2 {
			return t.spawnArgument(f, instr, c, args[1])
		}
		if a, ok := staticAPICall(fn, c.Signature()); ok {
			a.argTypes = argTypes(c)
			return t.dbCall(f, instr, a, args, c.Signature().Results())
		}
		if t.l.inModule(fn) || t.l.moduleWrapper(fn) {
			return t.inline(fn, args, nil)
		}
		return t.external(f, fn, c, args)
	}
	// A call through a function value.
	if callee.obj != nil && callee.obj.kind == objClosure && callee.obj.alts != nil {
		// One of several functions (a dispatcher's table of operations):
		// each runs on its branch; none is a call of nil.
		t.panicIf(ir.Not(ir.Or(callee.obj.altConds...)), "panic: call of a nil function")
		return t.forAlts(callee.obj, func(o *object) value {
			return t.call(f, instr, c, &deferRec{callee: value{obj: o}, args: args})
		})
	}
	if callee.obj != nil && (callee.obj.kind == objClosure || callee.obj.kind == objFunc) {
		fn := callee.obj.fn
		if t.l.inModule(fn) || t.l.moduleWrapper(fn) {
			return t.inline(fn, args, callee.obj.bindings)
		}
		if a, ok := staticAPICall(fn, nil); ok {
			// A method value such as db.Exec: the receiver is bound.
			if len(callee.obj.bindings) > 0 {
				args = append([]value{callee.obj.bindings[0]}, args...)
			}
			return t.dbCall(f, instr, a, args, c.Signature().Results())
		}
		return t.external(f, fn, c, args)
	}
	if fns, ok := t.l.fieldCallees(c.Value); ok {
		return t.callStored(f, instr, c, fns, args)
	}
	if isCancelFunc(c.Value.Type()) {
		// context.CancelFunc (from WithCancel, WithTimeout, …) only
		// cancels the context: no effect on the model.
		return t.fresh("cancel()", c.Signature().Results())
	}
	if t.l.dbFreeSignature(c.Signature()) {
		return t.opaqueCall(f, c, args)
	}
	if tb, ok := t.l.lookedUpTable(c.Value); ok && tb.why != "" {
		t.unsupported("call through a function value looked up in the package map %s, which %s", tb.name, tb.why)
		return t.fresh("call()", c.Signature().Results())
	}
	t.unsupported("call through a function value the analysis cannot resolve")
	return t.fresh("call()", c.Signature().Results())
}

// isCancelFunc reports whether typ is context.CancelFunc or
// context.CancelCauseFunc.
func isCancelFunc(typ types.Type) bool {
	n, ok := typ.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "context" {
		return false
	}
	return n.Obj().Name() == "CancelFunc" || n.Obj().Name() == "CancelCauseFunc"
}

// argTypes returns the types of a call's arguments, looking through the
// conversion to an interface (sqlx takes its struct arguments as any).
func argTypes(c *ssa.CallCommon) []types.Type {
	var out []types.Type
	if c.IsInvoke() {
		out = append(out, c.Value.Type())
	}
	for _, a := range c.Args {
		if mi, ok := a.(*ssa.MakeInterface); ok {
			out = append(out, mi.X.Type())
			continue
		}
		out = append(out, a.Type())
	}
	return out
}

// invoke translates an interface method call.
func (t *translator) invoke(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, recv value, args []value) value {
	m := c.Method
	results := c.Signature().Results()
	if ads, methods, ok := t.l.adapterCalls(c.Value, m); ok {
		return t.callAdapters(f, instr, c, ads, methods, args)
	}
	if m.Pkg() != nil {
		t.httpStatusCall(m.Pkg().Path(), m.Name(), append([]value{recv}, args...))
	}
	if isError(c.Value.Type()) && m.Name() == "Error" {
		return t.fresh("err.Error()", results)
	}
	if recv.obj != nil && recv.obj.kind == objResult && m.Name() == "RowsAffected" {
		errV := t.freshVar("err", ir.Bool, ir.KindCall)
		return value{tuple: []value{{expr: recv.obj.affected}, {expr: errV}}}
	}
	if k, ok := dbObjectKind(c.Value.Type()); ok && k == objResult {
		return t.fresh(m.Name()+"()", results)
	}
	if recv.obj != nil && isDBObj(recv.obj.kind) {
		// An interface (sqlc's DBTX, pgx.Tx, pgx.Rows) holding a database
		// handle we know.
		a := apiCall{Call: dblib.OnHandle(dblib.Kind(recv.obj.kind), m, c.Signature(), 0, 1), argTypes: argTypes(c)}
		return t.dbCall(f, instr, a, append([]value{recv}, args...), results)
	}
	if v, ok := t.lostRowsRead(c, recv, args, results); ok {
		return v
	}
	if _, isHandle := dbObjectKind(c.Value.Type()); (isHandle || dblib.IsDBInterface(c.Value.Type())) && dblib.OnHandle(dblib.DB, m, c.Signature(), 0, 1).Op.TouchesDB() {
		// A database interface whose handle the analysis did not see
		// created (e.g. read from a global).
		t.unsupported("database call %s on a %s value the analysis cannot trace to its connection or transaction", m.Name(), types.TypeString(c.Value.Type(), nil))
		return t.fresh(m.Name()+"()", results)
	}
	if recv.dyn != nil {
		// The dynamic type is known: call its method.
		if sel := t.l.Prog.MethodSets.MethodSet(recv.dyn).Lookup(m.Pkg(), m.Name()); sel != nil {
			if fn := t.l.Prog.MethodValue(sel); fn != nil && t.l.inModule(fn) {
				r := recv
				r.dyn = nil
				return t.inline(fn, append([]value{r}, args...), nil)
			}
		}
	}
	impls := t.l.implementations(m)
	var conds []ir.Expr // the condition under which each of impls runs (nil: a new choice)
	if only, when, ok := t.methodsOf(recv, m); ok {
		// The receiver holds one of a few known types (a decorator given
		// one of two implementations): only their methods may run.
		impls, conds = only, when
	} else if len(impls) > 0 && t.implementedElsewhere(m) {
		return t.fresh(m.Name()+"()", results)
	}
	if val, ok := validationOfMethod(m); ok && len(impls) == 0 {
		return t.validated(val, args, argTypes(c)[1:], results)
	}
	if pureMethods[m.FullName()] && len(impls) == 0 {
		if v, ok := t.pureInvoke(m, c.Value.Type(), recv, args, results); ok {
			return v
		}
	}
	// A method that calls itself through the interface (a decorator
	// wrapping another implementation) is assumed to wrap a different one.
	var others []*ssa.Function
	var otherConds []ir.Expr
	for i, impl := range impls {
		if !slices.Contains(t.stack, impl) {
			others = append(others, impl)
			if conds != nil {
				otherConds = append(otherConds, conds[i])
			}
		}
	}
	if len(others) > 0 && len(others) < len(impls) {
		t.p.Assume(fmt.Sprintf("%s wraps another implementation of %s, not itself", EntryName(t.stack[len(t.stack)-1]), m.Name()))
		impls, conds = others, otherConds
	}
	if !t.usesDatabase(impls, args) {
		if isEchoBind(m) && len(impls) == 0 {
			t.decodedTargets(args, false)
			t.markDecoded(args)
		}
		if !readOnlyFuncs[m.FullName()] {
			t.escape(append([]value{recv}, args...))
		}
		if len(impls) == 0 && m.Pkg() != nil && t.l.declaredInModule(m.Pkg()) {
			// An interface of the module with no implementation among the
			// analysed packages: one may sit in a package not analysed
			// (adv7 W3: `check ./svc` was SAFE, the unguarded debit of
			// ./store unseen). Where a package of the module under the
			// working directory was not loaded, that is unknown; else
			// the implementation comes from outside the module: said
			// beside the verdict.
			if dirs := t.l.unanalysedPackages(); len(dirs) > 0 {
				left := dirs[0] + " (a package of the module) was"
				if len(dirs) > 1 {
					left = fmt.Sprintf("%s and %d other packages of the module were", dirs[0], len(dirs)-1)
				}
				t.unsupported("%s.%s has no implementation in the analysed packages, and %s not analysed: an implementation there may write the database (analyse it too, e.g. ./...)", ifaceName(m), m.Name(), left)
			} else {
				t.p.Assume(fmt.Sprintf("%s.%s (no implementation in the module) leaves the database unchanged", ifaceName(m), m.Name()))
			}
		}
		return t.fresh(m.Name()+"()", results)
	}
	return t.dispatch(m, recv, args, impls, conds, results)
}

// usesDatabase reports whether an interface call must run its module
// implementations: one of them reads or writes the database (a read-only
// repository's SELECT constrains the values it returns), or a function
// passed to the call does (Runner.InTx(ctx, func(tx) error): the
// implementation calls it). Otherwise the call's results are arbitrary.
func (t *translator) usesDatabase(impls []*ssa.Function, args []value) bool {
	if len(impls) == 0 {
		return false
	}
	reach := t.l.reach()
	for _, impl := range impls {
		if r := reach[impl]; r != nil && (r.UnknownSQL || r.Reads || len(r.Tables) > 0) {
			return true
		}
	}
	for _, a := range args {
		if a.obj == nil || (a.obj.kind != objClosure && a.obj.kind != objFunc) || a.obj.fn == nil {
			continue
		}
		if r := reach[a.obj.fn]; r != nil && (r.UnknownSQL || r.Reads || len(r.Tables) > 0) {
			return true
		}
	}
	return false
}

// dispatch calls an interface method whose dynamic type is not known:
// one of impls runs, impls[i] where when[i] holds (when nil: a choice
// among them, see implOf), the module's implementations (a
// class-hierarchy call graph) or those of the types the receiver may
// have (methodsOf). A receiver the model cannot match to an
// implementation's type is an arbitrary value of that type.
func (t *translator) dispatch(m *types.Func, recv value, args []value, impls []*ssa.Function, when []ir.Expr, results *types.Tuple) value {
	if when == nil {
		choice := t.implOf(m, recv, impls)
		for i := range impls {
			when = append(when, ir.Eq(choice.v, ir.IntLit(int64(choice.types[i]))))
		}
	}
	from := t.cur
	var outs []value
	var ends []ir.Loc
	var conds []ir.Expr
	pos := t.pos
	for i, impl := range impls {
		t.cur, t.pos = from, pos
		cond := when[i]
		if len(impls) == 1 {
			cond = ir.True
		}
		t.emit(&ir.Assume{Cond: cond, Info: t.info(ir.KindCall, "")})
		rt := impl.Signature.Recv().Type()
		r := recv
		r.dyn = nil
		if !recvFits(r, rt) {
			r = t.input(m.Name()+".recv", rt, 1)
		}
		outs = append(outs, t.inline(impl, append([]value{r}, args...), nil))
		ends = append(ends, t.cur)
		conds = append(conds, cond)
	}
	t.pos = pos
	if len(outs) == 1 {
		return outs[0]
	}
	return t.merge(outs, ends, conds)
}

// recvFits reports whether v can be the receiver of type rt: a pointer to
// a cell of the pointed-to type.
func recvFits(v value, rt types.Type) bool {
	p, ok := rt.(*types.Pointer)
	return ok && v.obj != nil && v.obj.kind == objPtr && v.obj.cell != nil && types.Identical(v.obj.cell.typ, p.Elem())
}

// external models a call of a function outside the module: its results are
// arbitrary, memory it can reach is havocked, and a database handle passed
// to it makes the result unknown.
func (t *translator) external(f *frame, fn *ssa.Function, c *ssa.CallCommon, args []value) value {
	results := fn.Signature.Results()
	path := ""
	if fn.Pkg != nil {
		path = fn.Pkg.Pkg.Path()
	} else if fn.Object() != nil && fn.Object().Pkg() != nil {
		path = fn.Object().Pkg().Path()
	}
	name := fn.Name()
	if text, ok := t.l.embedFileRead(c); ok {
		// An embedded file read: its bytes (read by string(b), see
		// convert), no error.
		return value{tuple: []value{{obj: &object{kind: objSlice, length: ir.IntLit(int64(len(text)))}}, {expr: ir.False}}}
	}
	t.httpStatusCall(path, name, args)
	if v, ok := t.decimalCall(path, name, fn, args); ok {
		return v
	}
	if path == "errors" && name == "Join" {
		if v, ok := t.joinErrs(c, args); ok {
			return v
		}
	}
	if path == "errors" && name == "Is" {
		if v, ok := t.errorsIsSentinel(c, args); ok {
			return v
		}
	}
	if v, ok := t.errorsCall(path, name, t.callText(f, c, errCallName(path, name)), t.libraryErrorTarget(c), args, results); ok {
		switch path + "." + name {
		case "errors.New":
			v.err = freshErr()
		case "fmt.Errorf":
			v.err = t.errorfTag(f, c)
		}
		return v
	}
	if v, ok := t.mathCall(path, name, args); ok {
		return v
	}
	canonicalParse := path == "strconv" && (name == "Atoi" || name == "ParseInt" || name == "ParseUint") && decimalParse(args)
	if v, ok := t.pureExternal(fn, name, withoutEmptyVariadic(fn, c, args), results, canonicalParse); ok {
		return v
	}
	if val, ok := validationOf(fn); ok {
		return t.validated(val, args, argTypes(c), results)
	}
	if v, ok := t.ozzoCall(f, fn, c, results); ok {
		return v
	}
	if v, ok := t.clockCall(fn, args, results); ok {
		return v
	}
	t.noteInProcessLock(f, fn, c)
	if v, ok := t.knownExternal(fn, path, name, args, results, canonicalParse); ok {
		return v
	}
	handed := false
	for _, a := range args {
		if a.obj != nil && (a.obj.kind == objDB || a.obj.kind == objTx || a.obj.kind == objStmt) {
			// (Rows and rows read elsewhere change no row.)
			t.unsupported("database handle passed to %s.%s, which is not analysed", path, name)
			handed = true
			break
		}
	}
	if !handed {
		t.connHolderCall(fn, c)
	}
	t.callbacks(args, path+"."+name)
	if _, ok := bodyDecoders[fn.String()]; ok {
		t.decodedTargets(args, false)
	}
	t.markBody(fn.String(), args)
	t.escape(args)
	t.approxOutsideWrites(fn, args)
	t.jsonNotNaN(fn.String(), args)
	return t.fresh(name+"()", results)
}

// pureExternal translates a call of a pure library function: one value
// per run for the same arguments; a canonical integer parse of a text
// whose value is not known is the number its code stands for.
func (t *translator) pureExternal(fn *ssa.Function, name string, args []value, results *types.Tuple, canonicalParse bool) (value, bool) {
	if canonicalParse && !args[0].strKnown && pureFuncs[fn.String()] {
		// One value per run (a pure call), and, where the parse succeeds,
		// the number the text's code stands for (ir.StringCode).
		if v, ok := t.pureCall(fn, args, results); ok && len(v.tuple) == 2 && v.tuple[0].expr != nil && v.tuple[1].expr != nil {
			t.parsedInt(name, args, v.tuple[0].expr, v.tuple[1].expr)
			return v, true
		}
	}
	if pureFuncs[fn.String()] && !canonicalParse && !decimalFormat(fn, args) {
		// (A canonical integer parse of a known text is decided by the
		// strconv case below.)
		if v, ok := t.pureCall(fn, args, results); ok {
			return v, true
		}
	}
	return value{}, false
}

// knownExternal translates the calls of the standard library whose
// effect the model knows: panics and exits, formatting, conversions
// between numbers and text, sorting in place, and functions that write
// nothing the program holds.
func (t *translator) knownExternal(fn *ssa.Function, path, name string, args []value, results *types.Tuple, canonicalParse bool) (value, bool) {
	switch {
	case path == "log" && strings.HasPrefix(name, "Panic"):
		t.panicHere("panic")
		return t.fresh(name+"()", results), true
	case path == "os" && name == "Exit", path == "log" && strings.HasPrefix(name, "Fatal"):
		// The process exits without running deferred calls.
		t.edge(t.p.NewLoc(), &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, "")})
		t.cur = t.p.NewLoc() // unreachable continuation
		return t.fresh(name+"()", results), true
	case path == "fmt" && name == "Sprintf":
		return t.sprintf(args), true
	case path == "fmt" && strings.HasPrefix(name, "Sprint"):
		return t.fresh("fmt."+name+"()", results), true
	case path == "fmt" && (strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint")),
		path == "log" && strings.HasPrefix(name, "Print"):
		return t.fresh(name+"()", results), true
	case path == "strconv" && (name == "Itoa" || name == "FormatInt") && decimalText(args):
		// The canonical decimal text of n is coded as n (ir.StringCode).
		return value{expr: args[0].expr}, true
	case canonicalParse:
		// s may not be a number (an error), else it is the number its
		// code stands for, when it is written canonically.
		if args[0].strKnown {
			return parsedText(name, args[0].str, args), true
		}
		n := t.freshVar(name+"()", ir.Int, ir.KindCall)
		failed := t.freshVar(name+"()", ir.Bool, ir.KindCall)
		t.parsedInt(name, args, n, failed)
		return value{tuple: []value{{expr: n}, {expr: failed}}}, true
	case path == "sort":
		t.mayWriteElements() // sorts in place
		return t.fresh(name+"()", results), true
	case path == "context", path == "time", path == "strings", path == "strconv", path == "math", path == "math/bits", path == "unicode", path == "unicode/utf8":
		return t.approxResult(path, name, args, results), true
	case syncFuncs[fn.String()]:
		// Waits or locks: writes only the primitive's own state, which
		// the program reads only through these methods.
		return t.fresh(name+"()", results), true
	case readOnlyFuncs[path+"."+name], readOnlyFuncs[fn.String()]:
		// Reads its arguments (encodes, formats, logs): writes none.
		return t.fresh(name+"()", results), true
	}
	return value{}, false
}

// syncFuncs are the methods of the synchronisation primitives that
// write only the primitive's unexported state.
var syncFuncs = map[string]bool{
	"(*sync.WaitGroup).Add":                        true,
	"(*sync.WaitGroup).Done":                       true,
	"(*sync.WaitGroup).Wait":                       true,
	"(*sync.Mutex).Lock":                           true,
	"(*sync.Mutex).Unlock":                         true,
	"(*sync.Mutex).TryLock":                        true,
	"(*sync.RWMutex).Lock":                         true,
	"(*sync.RWMutex).Unlock":                       true,
	"(*sync.RWMutex).RLock":                        true,
	"(*sync.RWMutex).RUnlock":                      true,
	"(*sync.RWMutex).TryLock":                      true,
	"(*sync.RWMutex).TryRLock":                     true,
	"(*golang.org/x/sync/errgroup.Group).Wait":     true,
	"(*golang.org/x/sync/errgroup.Group).SetLimit": true,
}

// readOnlyFuncs are outside functions that read what their arguments
// reach but write none of it, so a pointer handed to them (json.Marshal(&d)
// for an audit line) keeps its value.
var readOnlyFuncs = map[string]bool{
	"encoding/json.Marshal":       true,
	"encoding/json.MarshalIndent": true,
	"encoding/json.Valid":         true,
	"encoding/xml.Marshal":        true,
	"encoding/xml.MarshalIndent":  true,
	"log/slog.Info":               true,
	"log/slog.Warn":               true,
	"log/slog.Error":              true,
	"log/slog.Debug":              true,
	"log/slog.InfoContext":        true,
	"log/slog.WarnContext":        true,
	"log/slog.ErrorContext":       true,
	"log/slog.DebugContext":       true,
	"reflect.DeepEqual":           true,
	"bytes.Equal":                 true,
	// Request accessors: they read the request, and write nothing a
	// handler handed them earlier (c.Bind(&req) then c.Request()).
	"(github.com/labstack/echo/v4.Context).Request":    true,
	"(github.com/labstack/echo/v4.Context).Param":      true,
	"(github.com/labstack/echo/v4.Context).QueryParam": true,
	"(github.com/labstack/echo/v4.Context).FormValue":  true,
	"(github.com/labstack/echo/v4.Context).Path":       true,
	"(github.com/labstack/echo/v4.Context).RealIP":     true,
	"(*net/http.Request).Context":                      true,
	"(*net/http.Request).FormValue":                    true,
	"(*net/http.Request).PathValue":                    true,
	"(*net/url.URL).Query":                             true,
	"(net/url.Values).Get":                             true,
	"(*github.com/gin-gonic/gin.Context).Param":        true,
	"(*github.com/gin-gonic/gin.Context).Query":        true,
	"(*github.com/gin-gonic/gin.Context).DefaultQuery": true,
	"(*github.com/gin-gonic/gin.Context).GetHeader":    true,
	"(context.Context).Done":                           true,
	"(context.Context).Err":                            true,
	"(context.Context).Value":                          true,
	"(context.Context).Deadline":                       true,
}

func isDBObj(k objKind) bool {
	switch k {
	case objDB, objTx, objStmt, objRow, objRows:
		return true
	}
	return false
}

// builtin models Go's built-in functions.
func (t *translator) builtin(f *frame, b *ssa.Builtin, c *ssa.CallCommon, args []value) value {
	results := c.Signature().Results()
	switch b.Name() {
	case "len", "cap":
		if len(args) == 1 {
			if args[0].strKnown {
				return value{expr: ir.IntLit(int64(len(args[0].str)))}
			}
			if o := args[0].obj; b.Name() == "cap" && o != nil && o.kind == objSlice && o.cell != nil && !o.capUnknown {
				return value{expr: ir.IntLit(int64(len(o.cell.fields)))}
			}
			if args[0].obj != nil && args[0].obj.kind == objSlice && args[0].obj.length != nil {
				return value{expr: args[0].obj.length}
			}
		}
		n := t.freshVar(b.Name()+"()", ir.Int, ir.KindCall)
		t.emit(&ir.Assume{Cond: ir.Cmp(ir.OpGe, n, ir.IntLit(0)), Info: t.info(ir.KindModel, "")})
		return value{expr: n}
	case "min", "max":
		if len(args) > 0 && args[0].expr != nil {
			out := args[0].expr
			for _, a := range args[1:] {
				if a.expr == nil {
					return t.fresh(b.Name()+"()", results)
				}
				op := ir.OpLt
				if b.Name() == "max" {
					op = ir.OpGt
				}
				out = ir.IteOf(ir.Cmp(op, a.expr, out), a.expr, out)
			}
			return value{expr: out}
		}
	case "append":
		v := t.appendCall(c, args)
		if len(args) > 0 && isErrorSlice(c.Args[0].Type()) {
			v.err = t.appendErrs(f, c, args[0].err)
		}
		return v
	case "copy", "clear":
		if b.Name() == "copy" {
			if v, ok := t.copyKnown(args); ok {
				return v
			}
		} else if len(args) == 1 {
			t.appendUnknown(args[0].obj, "clear") // every element, as nil
		}
		t.mayWriteElements()
		return t.fresh(b.Name()+"()", results)
	case "print", "println", "close", "delete":
		return value{}
	case "recover":
		return t.recoverCall()
	}
	return t.fresh(b.Name()+"()", results)
}

// appendCall translates builtin append(args...), call c.
func (t *translator) appendCall(c *ssa.CallCommon, args []value) value {
	if v, ok := t.appendCollected(c, args); ok {
		return v
	}
	if v, ok := t.appendKnown(c, args); ok {
		return v
	}
	if len(args) > 0 {
		t.appendUnknown(args[0].obj, "append")
	}
	for _, a := range args {
		t.lose(a) // the new slice's elements are not tracked
	}
	if n, ok := appendedLen(c, args); ok {
		// The elements are lost, not the length: "collect the
		// failures, roll back if any" hinges on it (adv6 m45a).
		return value{obj: &object{kind: objSlice, length: n}}
	}
	return value{obj: &object{kind: objSlice, length: t.freshLen("append()")}}
}

// appendedLen is the length of append(s, x...) when both lengths are
// known (a nil slice has none).
func appendedLen(c *ssa.CallCommon, args []value) (ir.Expr, bool) {
	if len(args) != 2 || isString(c.Args[1].Type()) {
		return nil, false
	}
	var lens []ir.Expr
	for _, a := range args {
		switch {
		case a.obj != nil && a.obj.kind == objNil:
			lens = append(lens, ir.IntLit(0))
		case a.obj != nil && a.obj.kind == objSlice && a.obj.length != nil:
			lens = append(lens, a.obj.length)
		default:
			return nil, false
		}
	}
	return ir.Add(lens[0], lens[1]), true
}

// initDefers sets the frame's defer flags to false on entry.
func (t *translator) initDefers(f *frame) {
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			rec := &deferRec{instr: d, flag: t.p.NewVar(f.prefix+"$deferred", ir.Bool, ir.Ghost)}
			f.defers = append(f.defers, rec)
			if inLoop(b) {
				t.pos = d.Pos()
				t.unsupported("defer inside a loop")
			}
		}
	}
	if len(f.defers) == 0 {
		return
	}
	lhs := make([]*ir.Var, len(f.defers))
	rhs := make([]ir.Expr, len(f.defers))
	for i, d := range f.defers {
		lhs[i], rhs[i] = d.flag, ir.False
	}
	t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindModel, "")})
}

// inLoop reports whether b can reach itself.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// deferCall evaluates the deferred call's function and arguments now and
// sets its flag.
func (t *translator) deferCall(f *frame, d *ssa.Defer) {
	var rec *deferRec
	for _, r := range f.defers {
		if r.instr == d {
			rec = r
		}
	}
	c := d.Common()
	rec.callee = t.val(f, c.Value)
	rec.args = nil
	for _, a := range c.Args {
		v := t.val(f, a)
		if v.expr != nil {
			// Arguments are evaluated at the defer statement: copy them.
			nv := t.p.NewVar(f.prefix+"$defer_arg", v.expr.Sort(), ir.Local)
			t.emit(&ir.Assign{Lhs: []*ir.Var{nv}, Rhs: []ir.Expr{v.expr}, Info: t.info(ir.KindAssign, "")})
			v.expr = nv
		}
		rec.args = append(rec.args, v)
	}
	rec.done = true
	t.emit(&ir.Assign{Lhs: []*ir.Var{rec.flag}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "")})
}

// pendingDefers is a RunDefers whose calls are emitted once every block of
// the frame (and so every defer statement) has been translated.
type pendingDefers struct {
	from, to ir.Loc
	pos      token.Pos
}

// runDefersLater leaves a gap in the current path for the deferred calls.
func (t *translator) runDefersLater(f *frame, pos token.Pos) {
	if len(f.defers) == 0 {
		return
	}
	to := t.p.NewLoc()
	f.pending = append(f.pending, pendingDefers{from: t.cur, to: to, pos: pos})
	t.cur = to
}

// fillDefers emits the deferred calls of every RunDefers of the frame.
func (t *translator) fillDefers(f *frame) {
	for _, pd := range f.pending {
		t.cur, t.pos = pd.from, pd.pos
		t.runDefers(f)
		t.edge(pd.to, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	}
}

// runDefers runs the deferred calls whose defer statement executed, last first.
func (t *translator) runDefers(f *frame) {
	for i := len(f.defers) - 1; i >= 0; i-- {
		rec := f.defers[i]
		if !rec.done {
			continue // its defer statement is unreachable
		}
		saved := t.pos
		t.pos = rec.instr.Pos()
		join := t.p.NewLoc()
		from := t.cur
		t.emit(&ir.Assume{Cond: rec.flag, Info: t.info(ir.KindCall, "")})
		// A deferred call runs at most once, even when a panic in a later
		// one unwinds the frame again.
		t.emit(&ir.Assign{Lhs: []*ir.Var{rec.flag}, Rhs: []ir.Expr{ir.False}, Info: t.info(ir.KindModel, "")})
		t.nextDeferred = true
		t.call(f, rec.instr, rec.instr.Common(), rec)
		t.nextDeferred = false
		t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindCall, "")})
		t.cur = from
		t.edge(join, &ir.Assume{Cond: ir.Not(rec.flag), Info: t.info(ir.KindModel, "")})
		t.pos = saved
	}
}

// decimalText reports whether the arguments of strconv.Itoa or FormatInt
// ask for the decimal text of an integer.
func decimalText(args []value) bool {
	if len(args) == 0 || args[0].expr == nil || args[0].expr.Sort() != ir.Int {
		return false
	}
	if len(args) == 1 {
		return true
	}
	base, ok := args[1].expr.(*ir.IntConst)
	return len(args) == 2 && ok && base.V.IsInt64() && base.V.Int64() == 10
}

// decimalFormat reports whether fn(args) is strconv.Itoa or FormatInt
// in base 10: the canonical text of the number, which the model codes
// as the number itself (knownExternal), not an arbitrary pure result (a
// counterexample printed Itoa(0) = "2", adv19 itoa-atoi).
func decimalFormat(fn *ssa.Function, args []value) bool {
	switch fn.String() {
	case "strconv.Itoa", "strconv.FormatInt":
		return decimalText(args)
	}
	return false
}

// decimalParse reports whether the arguments of strconv.Atoi, ParseInt or ParseUint
// ask for a decimal integer (of 8, 16, 32 or 64 bits, or the int size).
func decimalParse(args []value) bool {
	if len(args) == 0 || args[0].expr == nil || args[0].expr.Sort() != ir.Int {
		return false
	}
	if len(args) == 1 {
		return true
	}
	base, ok1 := args[1].expr.(*ir.IntConst)
	bits, ok2 := args[2].expr.(*ir.IntConst)
	return len(args) == 3 && ok1 && ok2 && base.V.IsInt64() && base.V.Int64() == 10 &&
		bits.V.IsInt64() && slices.Contains([]int64{0, 8, 16, 32, 64}, bits.V.Int64())
}

// ifaceName names the interface that declares method m: its type name
// where it has one (Ledger), else the method's package.
func ifaceName(m *types.Func) string {
	recv := m.Type().(*types.Signature).Recv()
	if recv != nil {
		if n, ok := recv.Type().(*types.Named); ok {
			return n.Obj().Name()
		}
	}
	return m.Pkg().Name()
}
