package frontend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Panics unwind the stack of inlined frames: a panic jumps to its frame's
// unwinding code, which marks the program as panicking, runs the deferred
// calls whose defer statement executed (last first, each at most once) and
// then either resumes at the function's Recover block — a deferred call
// called recover() — or goes on unwinding in the caller. Unwinding out of
// the entry point ends the path: a transaction still open is never
// committed, and auto-committed writes were checked as they ran.
//
// recover() called directly by a deferred function returns a non-nil
// value exactly when the program is panicking, and stops the panic.

// panicFlag returns the ghost variable "a panic is unwinding" (false on
// entry, see Translate).
func (t *translator) panicFlag() *ir.Var {
	if t.panicking == nil {
		t.panicking = t.p.NewVar("$panicking", ir.Bool, ir.Ghost)
	}
	return t.panicking
}

// unwindLoc returns the location where f's unwinding code starts.
func (t *translator) unwindLoc(f *frame) ir.Loc {
	if !f.unwinds {
		f.unwind, f.unwinds = t.p.NewLoc(), true
	}
	return f.unwind
}

// curFrame returns the innermost inlined frame.
func (t *translator) curFrame() *frame {
	if len(t.frames) == 0 {
		return nil
	}
	return t.frames[len(t.frames)-1]
}

// panicHere makes the current path panic (why is shown in traces); the
// code that follows is unreachable.
func (t *translator) panicHere(why string) {
	f := t.curFrame()
	if f == nil {
		t.edge(t.p.NewLoc(), &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, why)})
	} else {
		t.edge(t.unwindLoc(f), &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, why)})
	}
	t.cur = t.p.NewLoc()
}

// panicIf panics where cond holds and goes on where it does not.
func (t *translator) panicIf(cond ir.Expr, why string) {
	from := t.cur
	t.emit(&ir.Assume{Cond: cond, Info: t.info(ir.KindBranch, "")})
	t.panicHere(why)
	t.cur = from
	t.emit(&ir.Assume{Cond: ir.Not(cond), Info: t.info(ir.KindBranch, "")})
}

// runtimePanics reports whether a runtime panic (index out of range,
// division by zero, …) can change the outcome: some frame on the stack
// has deferred calls that would run while it unwinds. Without one, a
// panicking path just ends, as the path that does not panic goes on.
func (t *translator) runtimePanics() bool {
	for _, f := range t.frames {
		if len(f.defers) > 0 {
			return true
		}
	}
	return false
}

// emitUnwind emits f's unwinding code (after its deferred calls for the
// normal returns, see inline).
func (t *translator) emitUnwind(f *frame) {
	if !f.unwinds {
		return
	}
	t.cur = f.unwind
	if len(f.defers) > 0 {
		p := t.panicFlag()
		t.emit(&ir.Assign{Lhs: []*ir.Var{p}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "panicking: deferred calls run")})
		t.runDefers(f)
		if rb := f.fn.Recover; rb != nil {
			from := t.cur
			t.edge(f.start[rb], &ir.Assume{Cond: ir.Not(p), Info: t.info(ir.KindReturn, "recovered")})
			t.cur = from
			t.emit(&ir.Assume{Cond: p, Info: t.info(ir.KindModel, "")})
		}
	}
	if len(t.frames) >= 2 {
		t.edge(t.unwindLoc(t.frames[len(t.frames)-2]), &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, "panic unwinds")})
		return
	}
	// Out of the entry point: the path ends.
	t.edge(t.p.NewLoc(), &ir.Assume{Cond: ir.True, Info: t.info(ir.KindReturn, "panic leaves "+f.fn.Name())})
}

// recoverCall models the built-in recover: non-nil exactly when called
// directly by a deferred function while a panic unwinds; it stops the panic.
func (t *translator) recoverCall() value {
	f := t.curFrame()
	if f == nil || !f.deferred {
		return value{nonNil: ir.False}
	}
	p := t.panicFlag()
	got := t.p.NewVar("recover()", ir.Bool, ir.Local)
	t.emit(&ir.Assign{Lhs: []*ir.Var{got}, Rhs: []ir.Expr{p}, Info: t.info(ir.KindCall, "")})
	t.emit(&ir.Assign{Lhs: []*ir.Var{p}, Rhs: []ir.Expr{ir.False}, Info: t.info(ir.KindModel, "the panic stops")})
	return value{nonNil: got}
}

// arrayLen returns the length of an array or pointer-to-array type.
func arrayLen(typ types.Type) (int64, bool) {
	if p, ok := typ.Underlying().(*types.Pointer); ok {
		typ = p.Elem()
	}
	if a, ok := typ.Underlying().(*types.Array); ok {
		return a.Len(), true
	}
	return 0, false
}

// indexPanic adds the index-out-of-range panic of x[index]: exact when
// the length is known (an array type, a slice whose length the model
// tracks, a constant string), otherwise on an arbitrary length the
// result marks as approximated.
func (t *translator) indexPanic(f *frame, x, index ssa.Value) {
	if !t.runtimePanics() {
		return
	}
	iv := t.val(f, index).expr
	if iv == nil {
		return
	}
	var n ir.Expr
	xv := t.val(f, x)
	if k, ok := arrayLen(x.Type()); ok {
		if _, isConst := index.(*ssa.Const); isConst {
			return // checked by the compiler
		}
		n = ir.IntLit(k)
	} else if xv.strKnown {
		n = ir.IntLit(int64(len(xv.str)))
	} else if xv.obj != nil && xv.obj.kind == objSlice && xv.obj.length != nil {
		n = xv.obj.length
	} else {
		v := t.freshVar("len("+t.nameOf(f, x)+")", ir.Int, ir.KindModel)
		file, line := t.l.position(t.pos)
		v.Approx = fmt.Sprintf("the length of %s (%s:%d), which the model does not track", t.nameOf(f, x), file, line)
		t.emit(&ir.Assume{Cond: ir.Cmp(ir.OpGe, v, ir.IntLit(0)), Info: t.info(ir.KindModel, "")})
		n = v
	}
	out := ir.Or(ir.Cmp(ir.OpLt, iv, ir.IntLit(0)), ir.Cmp(ir.OpGe, iv, n))
	t.panicIf(out, "panic: index out of range")
}

// divPanic adds the division-by-zero panic of an integer division.
func (t *translator) divPanic(i *ssa.BinOp, y ir.Expr) {
	b, ok := i.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || !t.runtimePanics() {
		return
	}
	if c, ok := i.Y.(*ssa.Const); ok && c.Value != nil && constant.Sign(c.Value) != 0 {
		return
	}
	t.panicIf(ir.Eq(y, ir.IntLit(0)), "panic: integer divide by zero")
}

// knownPanic adds the panic of a failed type assertion x.(T) whose
// dynamic type the model knows: none when it is T, certain when it is
// not — the path ends there (after the deferred calls, if any), never
// goes on with an arbitrary T.
func (t *translator) knownPanic(f *frame, i *ssa.TypeAssert) {
	if !types.AssignableTo(dynType(t.val(f, i.X)), i.AssertedType) {
		t.panicHere("panic: interface conversion")
	}
}

// assertPanic adds the panic of a failed type assertion x.(T) whose
// dynamic type the model does not choose (choiceAssert): on an arbitrary
// outcome the result marks as approximated.
func (t *translator) assertPanic(f *frame, i *ssa.TypeAssert) {
	if !t.runtimePanics() {
		return
	}
	b := t.freshVar(t.nameOf(f, i)+".(ok)", ir.Bool, ir.KindModel)
	file, line := t.l.position(t.pos)
	b.Approx = fmt.Sprintf("the dynamic type of %s (%s:%d), which the model does not track", t.sourceName(f, i.X), file, line)
	t.panicIf(ir.Not(b), "panic: interface conversion")
}

// sourceName names v as the source reads it where v loads a field (a
// chain of them) of a named value: s.Querier, not the SSA register t2
// that a reason would otherwise print (independent tester adv17).
func (t *translator) sourceName(f *frame, v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return t.sourceName(f, fa.X) + "." + fieldName(fa)
		}
	case *ssa.Field:
		if st, ok := x.X.Type().Underlying().(*types.Struct); ok {
			return t.sourceName(f, x.X) + "." + st.Field(x.Field).Name()
		}
	}
	return t.nameOf(f, v)
}

// dynType returns the dynamic type of an interface value when the model
// knows it: a concrete value boxed, or a pointer to a tracked cell.
func dynType(v value) types.Type {
	if v.dyn != nil {
		return v.dyn
	}
	if v.obj != nil && v.obj.kind == objPtr && v.obj.cell != nil && v.obj.cell.typ != nil {
		return types.NewPointer(v.obj.cell.typ)
	}
	return nil
}

// knownAssert decides x.(T) when the model knows x's dynamic type: the
// value itself (a pointer keeps its cell, so stores through it count) and,
// with comma-ok, whether it holds.
func (t *translator) knownAssert(f *frame, i *ssa.TypeAssert) (value, bool) {
	x := t.val(f, i.X)
	dyn := dynType(x)
	if dyn == nil {
		return value{}, false
	}
	holds := types.AssignableTo(dyn, i.AssertedType)
	v := x
	if _, isIface := i.AssertedType.Underlying().(*types.Interface); !isIface {
		v.dyn = nil
	}
	if !holds {
		v = t.fresh(t.nameOf(f, i), i.AssertedType) // the zero value; only reached with ok false
	}
	if !i.CommaOk {
		return v, true
	}
	return value{tuple: []value{v, {expr: ir.BoolConst(holds)}}}, true
}
