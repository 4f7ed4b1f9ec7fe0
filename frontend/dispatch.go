package frontend

import (
	"go/types"
	"slices"

	"github.com/dbverify/dbverify/ir"
	"golang.org/x/tools/go/ssa"
)

// implOf returns the choice of implementation of an interface call on
// recv: one variable whose value is the receiver type's number, assumed
// to be one of impls' receiver types. Calls on values loaded from one
// cell (s.store.Points, then s.store.Spend) share the variable, so that
// one run dispatches both to the same implementation (not the in-memory
// test double for the read and the SQL store for the write); a store
// into the cell in between, or another set of implementations, makes a
// new choice. choice.types[i] is the number of impls[i]'s receiver type.
func (t *translator) implOf(m *types.Func, recv value, impls []*ssa.Function) *implChoice {
	ids := make([]int, len(impls))
	for i, impl := range impls {
		ids[i] = t.typeID(impl.Signature.Recv().Type())
	}
	if c := recv.src; c != nil && c.impl != nil && sameIDs(c.impl.types, ids) {
		return &implChoice{v: c.impl.v, types: ids, m: m}
	}
	v := t.freshVar(m.Name()+"$impl", ir.Int, ir.KindModel)
	var one []ir.Expr
	for _, id := range ids {
		one = append(one, ir.Eq(v, ir.IntLit(int64(id))))
	}
	t.emit(&ir.Assume{Cond: ir.Or(one...), Info: t.info(ir.KindModel, "")})
	ch := &implChoice{v: v, types: ids, m: m}
	if recv.src != nil {
		recv.src.impl = ch
		if recv.src.dynType != nil {
			t.linkImpl(recv.src.dynType, ch)
		}
	}
	return ch
}

// typeID returns the number of a receiver type.
func (t *translator) typeID(typ types.Type) int {
	if t.typeIDs == nil {
		t.typeIDs = map[string]int{}
	}
	k := types.TypeString(typ, nil)
	id, ok := t.typeIDs[k]
	if !ok {
		id = len(t.typeIDs)
		t.typeIDs[k] = id
	}
	return id
}

// sameIDs reports whether two sets of type numbers are equal.
func sameIDs(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// methodsOf returns the module's methods m of the dynamic types an
// interface receiver may have (recv.dyns) and, where recv.dynVar
// numbers the one it has, the condition under which each runs (nil
// otherwise); false when the types are not known or one of them has no
// method m in the module: then every implementation may run.
func (t *translator) methodsOf(recv value, m *types.Func) ([]*ssa.Function, []ir.Expr, bool) {
	if c := recv.src; len(recv.dyns) == 0 && c != nil && c.dynType != nil {
		// A type assertion chose the content's type (dyntypes.go).
		recv.dyns, recv.dynVar = c.dynType.types, c.dynType.v
	}
	if len(recv.dyns) == 0 {
		return nil, nil, false
	}
	var out []*ssa.Function
	var when [][]ir.Expr
	for _, typ := range recv.dyns {
		sel := t.l.Prog.MethodSets.MethodSet(typ).Lookup(m.Pkg(), m.Name())
		if sel == nil {
			return nil, nil, false
		}
		fn := t.l.unwrap(t.l.Prog.MethodValue(sel))
		if fn == nil || !t.l.inModule(fn) {
			return nil, nil, false
		}
		i := slices.Index(out, fn)
		if i < 0 {
			i = len(out)
			out, when = append(out, fn), append(when, nil)
		}
		if recv.dynVar != nil {
			when[i] = append(when[i], ir.Eq(recv.dynVar, ir.IntLit(int64(t.typeID(typ)))))
		}
	}
	if recv.dynVar == nil {
		return out, nil, true
	}
	conds := make([]ir.Expr, len(when))
	for i, w := range when {
		conds[i] = ir.Or(w...)
	}
	return out, conds, true
}

// typedPhi gives the value v of an interface φ whose incoming values
// (known) all have known dynamic types those types (dyns) and, where
// each has one type or its own number variable, a variable numbering
// the type the path brings (dynVar, typeID's numbers), assigned on the
// incoming edges (phiMoves): a call through it runs the method of that
// type only.
func (t *translator) typedPhi(f *frame, p *ssa.Phi, known []value, v *value) {
	v.dyns = phiDyns(known, len(p.Edges))
	if v.dyns == nil {
		return
	}
	if t.stackInLoop() {
		return // the variable would hold the type of the last iteration's value
	}
	for _, k := range known {
		if k.dyn == nil && k.dynVar == nil {
			return
		}
	}
	v.dynVar = t.p.NewVar(f.prefix+t.nameOf(f, p)+"$type", ir.Int, ir.Ghost)
	if f.phiType == nil {
		f.phiType = map[*ssa.Phi]*ir.Var{}
	}
	f.phiType[p] = v.dynVar
}

// dynTypeOf is the number (typeID) of the dynamic type of an interface
// value an edge brings to a typed φ.
func (t *translator) dynTypeOf(v value) ir.Expr {
	if v.dynVar != nil {
		return v.dynVar
	}
	return ir.IntLit(int64(t.typeID(v.dyn)))
}

// phiDyns returns the dynamic types an interface φ of edges incoming
// values may have, when every value (all known) has known ones (nil
// otherwise: any type).
func phiDyns(known []value, edges int) []types.Type {
	if len(known) != edges {
		return nil
	}
	var out []types.Type
	for _, v := range known {
		vs := v.dyns
		if v.dyn != nil {
			vs = []types.Type{v.dyn}
		}
		if len(vs) == 0 {
			return nil
		}
		for _, typ := range vs {
			if !slices.ContainsFunc(out, func(u types.Type) bool { return types.Identical(u, typ) }) {
				out = append(out, typ)
			}
		}
	}
	return out
}

// resultTypes follows the dynamic type of an interface result over the
// returns of a function (a helper returning one of two implementations):
// v numbers the type each return gives (assigned there), dyns are those
// types; known until a return gives a value of unknown type (nil, an
// input).
type resultTypes struct {
	v     *ir.Var
	dyns  []types.Type
	known bool
}

// returnType records the dynamic type of the result v a return gives,
// with the assignment of its number to rt.v added to lhs, rhs.
func (t *translator) returnType(rt *resultTypes, v value, lhs []*ir.Var, rhs []ir.Expr) ([]*ir.Var, []ir.Expr) {
	if !rt.known || (v.dyn == nil && v.dynVar == nil) {
		rt.known = false
		return lhs, rhs
	}
	rt.dyns = phiDyns([]value{{dyns: rt.dyns}, v}, 2)
	if len(rt.dyns) == 0 {
		rt.dyns = phiDyns([]value{v}, 1)
	}
	return append(lhs, rt.v), append(rhs, t.dynTypeOf(v))
}

// apply gives the merged result v the dynamic types the returns gave,
// where v does not know its own.
func (rt *resultTypes) apply(v value) value {
	if rt == nil || !rt.known || len(rt.dyns) == 0 || v.dyn != nil || v.dynVar != nil {
		return v
	}
	v.dyns, v.dynVar = rt.dyns, rt.v
	return v
}

// stackInLoop reports whether the code being translated may run more
// than once in a run of the entry: the block a frame on the stack is at
// lies on a cycle, or is not known (deferred calls, unwinding), except
// for the frame being set up, before its blocks. A ghost variable
// assigned there holds the last run's value, not that of a value kept
// from an earlier one (in memory): such values get no type variable
// (dynVar), only their types.
func (t *translator) stackInLoop() bool {
	for i, f := range t.frames {
		if f.block == nil && i == len(t.frames)-1 {
			continue
		}
		if t.inLoop(f.block) {
			return true
		}
	}
	return false
}
