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
		return &implChoice{v: c.impl.v, types: ids}
	}
	v := t.freshVar(m.Name()+"$impl", ir.Int, ir.KindModel)
	var one []ir.Expr
	for _, id := range ids {
		one = append(one, ir.Eq(v, ir.IntLit(int64(id))))
	}
	t.emit(&ir.Assume{Cond: ir.Or(one...), Info: t.info(ir.KindModel, "")})
	ch := &implChoice{v: v, types: ids}
	if recv.src != nil {
		recv.src.impl = ch
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
