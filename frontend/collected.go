package frontend

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// A slice a loop fills one element at a time (out = append(out, e), the
// rows.Next loop of a repository helper) holds any number of elements;
// the model follows one of them exactly. At each append the model may
// choose (nondeterministically, once) to follow the appended element: it
// copies its values and its index into ghost variables. A later read of
// the slice at an index gets the followed element's values when the index
// is the followed one, and otherwise an arbitrary value marked as an
// approximation. A counterexample that reads only the followed element is
// a real run (the choice is the one element it reads); one that reads any
// other is excluded as it may be spurious (refine's retries), so the
// followed element decides an UNSAFE and never a wrong one. Every run is
// a run of the model, so a SAFE stays sound.
//
// What could make the copy differ from the slice's element stops the
// following (the ghost valid flag, set false where it happens, so reads
// after it are approximations): a write through a pointer to an element,
// the slice handed to code that loses it (escape.go: a call the model does
// not follow, a slice expression), anything the translator takes to
// write elements of slices it does not track (copy, clear, package sort,
// a store through a pointer it lost: mayWriteElements stops every
// following), and an append onto the slice other than the loop's own
// (another slice could share the array).

// collection is the ghost state of a slice φ filled by appends.
type collection struct {
	set, valid *ir.Var // an element is followed; no write disturbed it
	idx        *ir.Var // the followed element's index
	vals       *cell   // the followed element's values
	elem       types.Type
	name       string
	// appends are the appended operands (each append call's own) of the
	// appends whose result flows back into the φ.
	appends map[ssa.Value]bool
}

// collectionFor returns the ghost state of slice φ p when its edges are
// nil or append(p, e) of one element of a plain type; nil otherwise.
func (t *translator) collectionFor(f *frame, p *ssa.Phi) *collection {
	if !t.follow {
		return nil
	}
	st, ok := p.Type().Underlying().(*types.Slice)
	if !ok || !plainElem(st.Elem(), 0) {
		return nil
	}
	appends := map[ssa.Value]bool{}
	for _, e := range p.Edges {
		if k, isConst := e.(*ssa.Const); isConst && k.IsNil() {
			continue
		}
		call, isCall := e.(*ssa.Call)
		if !isCall {
			return nil
		}
		b, isBuiltin := call.Call.Value.(*ssa.Builtin)
		if !isBuiltin || b.Name() != "append" || len(call.Call.Args) != 2 || call.Call.Args[0] != p {
			return nil
		}
		appends[call.Call.Args[1]] = true
	}
	if len(appends) == 0 {
		return nil
	}
	name := f.prefix + t.nameOf(f, p)
	co := &collection{
		set:     t.p.NewVar(name+"$followed", ir.Bool, ir.Local),
		valid:   t.p.NewVar(name+"$intact", ir.Bool, ir.Local),
		idx:     t.p.NewVar(name+"$index", ir.Int, ir.Local),
		vals:    t.newCell(st.Elem(), name+"$elem", false),
		elem:    st.Elem(),
		name:    name,
		appends: appends,
	}
	t.collections = append(t.collections, co)
	return co
}

// plainElem says typ is a scalar the model holds as one variable (not a
// float, whose NaN flag is carried aside) or a struct of such.
func plainElem(typ types.Type, depth int) bool {
	if depth > 2 {
		return false
	}
	if s, ok := sortOf(typ); ok {
		return s != ir.Real && !isError(typ)
	}
	st, ok := typ.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !plainElem(st.Field(i).Type(), depth+1) {
			return false
		}
	}
	return true
}

// leafVars lists the scalar variables of cell c, depth first.
func (t *translator) leafVars(c *cell) []*ir.Var {
	if c == nil {
		return nil
	}
	if c.v != nil {
		return []*ir.Var{c.v}
	}
	var out []*ir.Var
	for i := range c.fields {
		out = append(out, t.leafVars(t.field(c, i))...)
	}
	return out
}

// leafExprs lists the scalars of v in the order of leafVars; false when
// one is not known.
func leafExprs(v value) ([]ir.Expr, bool) {
	if v.expr != nil {
		return []ir.Expr{v.expr}, true
	}
	if v.fields == nil {
		return nil, false
	}
	var out []ir.Expr
	for _, fv := range v.fields {
		xs, ok := leafExprs(fv)
		if !ok {
			return nil, false
		}
		out = append(out, xs...)
	}
	return out, true
}

// collectionMoves returns the ghost assignments of slice φ pv's
// collection on the edge that brings in: a nil slice starts it, the
// loop's own append keeps it, anything else stops the following.
func collectionMoves(pv, in value, fromNil bool) (lhs []*ir.Var, rhs []ir.Expr) {
	co := pv.obj.coll
	switch {
	case fromNil:
		return []*ir.Var{co.set, co.valid}, []ir.Expr{ir.False, ir.True}
	case in.obj != nil && in.obj.coll == co:
		return nil, nil
	}
	return []*ir.Var{co.valid}, []ir.Expr{ir.False}
}

// stopFollowing marks co's followed element as no longer known from here.
func (t *translator) stopFollowing(co *collection) {
	t.emit(&ir.Assign{Lhs: []*ir.Var{co.valid}, Rhs: []ir.Expr{ir.False}, Info: t.info(ir.KindModel, "")})
}

// appendCollected translates append(s, e) onto a slice whose elements the
// model follows: the loop's own append may choose e as the followed
// element; another append onto s stops the following (its array may be
// s's). false when the call is not one of those.
func (t *translator) appendCollected(c *ssa.CallCommon, args []value) (value, bool) {
	if len(args) != 2 || args[0].obj == nil || args[0].obj.coll == nil {
		return value{}, false
	}
	s, co := args[0].obj, args[0].obj.coll
	elem, one := t.onlyElem(args[1])
	if len(c.Args) != 2 || !co.appends[c.Args[1]] || !one || s.length == nil {
		t.stopFollowing(co)
		return value{}, false
	}
	xs, ok := leafExprs(elem)
	vs := t.leafVars(co.vals)
	if !ok || len(xs) != len(vs) {
		t.stopFollowing(co)
		return value{}, false
	}
	take := t.freshVar(co.name+"$take", ir.Bool, ir.KindModel)
	now := ir.And(ir.Not(co.set), take)
	lhs := append([]*ir.Var{co.set, co.idx}, vs...)
	rhs := []ir.Expr{ir.Or(co.set, take), ir.IteOf(now, s.length, co.idx)}
	for i, v := range vs {
		rhs = append(rhs, ir.IteOf(now, convertSort(xs[i], v.Type), v))
	}
	t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindModel, "")})
	return value{obj: &object{kind: objSlice, length: ir.Add(s.length, ir.IntLit(1)), coll: co}}, true
}

// onlyElem loads the element of a one-element slice whose array the
// model tracks (append's variadic operand).
func (t *translator) onlyElem(v value) (value, bool) {
	o := v.obj
	if o == nil || o.kind != objSlice || o.cell == nil || len(o.cell.fields) != 1 {
		return value{}, false
	}
	if n, ok := constLen(o); !ok || n != 1 {
		return value{}, false
	}
	fc := t.field(o.cell, 0)
	if fc == nil || (fc.v == nil && fc.fields == nil) {
		return value{}, false
	}
	return t.load(fc, fc.name), true
}

// readOnlyElem says the element pointer i is only read (loaded, or its
// fields' pointers loaded).
func readOnlyElem(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 3 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.FieldAddr:
			if !readOnlyElem(r, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// collectedElem translates &s[i], only read, of a slice whose elements
// the model follows: the followed element's values when i is its index,
// otherwise an arbitrary element marked as an approximation. false when
// the index is not known or the element may be written (which stops the
// following).
func (t *translator) collectedElem(f *frame, i *ssa.IndexAddr, s *object) (value, bool) {
	co := s.coll
	at := t.val(f, i.Index).expr
	if at == nil || !readOnlyElem(i, 0) {
		t.stopFollowing(co)
		return value{}, false
	}
	name := f.prefix + t.exprName(f, i.X) + "[i]"
	c := t.newCell(co.elem, name, false)
	other := t.anonCell(co.elem, name+"$other")
	vs, os, follow := t.leafVars(c), t.leafVars(other), t.leafVars(co.vals)
	file, line := t.l.position(t.pos)
	why := fmt.Sprintf("an element of %s (%s:%d) other than the one the model follows (each is filled by an append in a loop)", t.nameOf(f, i.X), file, line)
	t.markApproxDeep(other, why, 0)
	t.havocCell(other, 0)
	hit := ir.And(co.set, co.valid, ir.Eq(convertSort(at, ir.Int), co.idx))
	from, join := t.cur, t.p.NewLoc()
	t.edge(t.p.NewLoc(), &ir.Assume{Cond: hit, Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assign{Lhs: vs, Rhs: varExprs(follow), Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.edge(t.p.NewLoc(), &ir.Assume{Cond: ir.Not(hit), Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assign{Lhs: vs, Rhs: varExprs(os), Info: t.info(ir.KindModel, "")})
	return value{obj: &object{kind: objPtr, cell: c}}, true
}

func varExprs(vs []*ir.Var) []ir.Expr {
	out := make([]ir.Expr, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
