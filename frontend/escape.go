package frontend

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Pointers the model loses track of.
//
// A pointer is tracked while the model knows the cell it points to. It is
// lost when it is stored where the model does not track contents (a map,
// a slice element, memory behind an unknown pointer), when two different
// pointers merge (a φ, a field assigned twice, two returns), when an
// array holding it is indexed by a variable, and when it is appended to a
// slice. A lost pointer's cell is "escaped": from then on a store through
// a pointer the model does not track may write it, and so does code
// outside the module that receives anything that could reach it.
//
// Such a store havocs every escaped cell (and every cell inside one) of
// the stored type; a call of outside code havocs what its arguments
// reach and, when an argument is opaque, every escaped cell. The havocked
// variables are marked as approximations (ir.Var.Approx): a store that
// may not have hit them cannot make a counterexample.

// escapeDepth bounds the walk through cells, fields and references.
const escapeDepth = 5

// lose records that the pointers in v are no longer tracked.
func (t *translator) lose(v value) {
	t.loseDepth(v, 0)
}

func (t *translator) loseDepth(v value, depth int) {
	if depth > escapeDepth {
		return
	}
	if o := v.obj; o != nil {
		if o.coll != nil {
			t.stopFollowing(o.coll)
		}
		if o.entries != nil {
			// A map literal handed to code the model does not follow may
			// change: its entries are no longer known.
			for _, e := range o.entries {
				t.loseDepth(e, depth+1)
			}
			o.entries = nil
		}
		if o.cell != nil {
			dropEntries(o.cell, depth)
		}
		switch o.kind {
		case objPtr, objSlice:
			if o.cell != nil && !t.escapedCells[o.cell] {
				if t.escapedCells == nil {
					t.escapedCells = map[*cell]bool{}
				}
				t.escapedCells[o.cell] = true
				t.escaped = append(t.escaped, o.cell)
			}
		case objClosure:
			for _, b := range o.bindings {
				t.loseDepth(b, depth+1)
			}
		}
		for _, a := range o.alts {
			t.loseDepth(value{obj: a}, depth+1)
		}
	}
	for _, fv := range v.fields {
		t.loseDepth(fv, depth+1)
	}
	for _, tv := range v.tuple {
		t.loseDepth(tv, depth+1)
	}
}

// clobber models a store of a typ value through a pointer the model does
// not track: every escaped cell of that type (or inside an escaped cell)
// gets an arbitrary value. A nil typ stands for any type (outside code).
func (t *translator) clobber(typ types.Type, why string) {
	if len(t.escaped) == 0 {
		return
	}
	seen := map[*cell]bool{}
	for _, c := range t.escaped {
		t.clobberCell(c, typ, why, seen, 0)
	}
}

func (t *translator) clobberCell(c *cell, typ types.Type, why string, seen map[*cell]bool, depth int) {
	if c == nil || seen[c] || depth > escapeDepth {
		return
	}
	seen[c] = true
	if typ == nil || (c.typ != nil && types.Identical(c.typ, typ)) {
		t.havocApprox(c, why, 0)
		if typ != nil {
			return
		}
	}
	for i := range c.fields {
		t.clobberCell(t.field(c, i), typ, why, seen, depth+1)
	}
	if c.refSet && c.ref.obj != nil && (c.ref.obj.kind == objPtr || c.ref.obj.kind == objSlice) {
		t.clobberCell(c.ref.obj.cell, typ, why, seen, depth+1)
	}
}

// havocApprox gives every scalar reachable in c a new arbitrary value
// marked as an approximation: only the values after this havoc are
// suspect, not the cell's earlier ones.
func (t *translator) havocApprox(c *cell, why string, depth int) {
	if c == nil || depth > escapeDepth {
		return
	}
	if c.v != nil {
		h := t.p.NewVar(c.v.Name, c.v.Type, ir.Local)
		h.Approx, h.Str, h.Internal, h.Named, h.Err = why, c.v.Str, c.v.Internal, c.v.Named, c.v.Err
		t.emit(&ir.Havoc{Vars: []*ir.Var{h}, Info: t.info(ir.KindCall, "")})
		t.emit(&ir.Assign{Lhs: []*ir.Var{c.v}, Rhs: []ir.Expr{h}, Info: t.info(ir.KindModel, "")})
		return
	}
	if c.box != nil {
		t.havocBox(c, why)
		return
	}
	for i := range c.fields {
		t.havocApprox(t.field(c, i), why, depth+1)
	}
	if c.refSet && c.ref.obj != nil && (c.ref.obj.kind == objPtr || c.ref.obj.kind == objSlice) {
		t.havocApprox(c.ref.obj.cell, why, depth+1)
	}
}

// storeUntracked models a store of v through a pointer (to a typ value)
// the model does not track.
func (t *translator) storeUntracked(typ types.Type, v value) {
	t.mayWriteElements()
	t.lose(v)
	if len(t.escaped) == 0 {
		return
	}
	file, line := t.l.position(t.pos)
	t.clobber(typ, fmt.Sprintf("a store through a pointer the model does not track (%s:%d) may have written it", file, line))
}

// escape havocs memory reachable from values handed to code the model
// does not see; an opaque argument may reach any escaped cell.
func (t *translator) escape(vals []value) {
	opaque := false
	for _, v := range vals {
		if v.expr == nil {
			t.mayWriteElements()
		}
		if mayHoldUntracked(v, 0) {
			opaque = true
		}
	}
	if opaque && len(t.escaped) > 0 {
		// What the model lost track of may be reached: may be written.
		file, line := t.l.position(t.pos)
		t.clobber(nil, fmt.Sprintf("code the model does not see (%s:%d) may have written it", file, line))
	}
	for _, v := range vals {
		t.escapeValue(v, 0) // what the arguments reach: written, exactly
		t.lose(v)           // the code may keep what it was given
	}
}

// dropEntries forgets the entries of the map literals held in cell c (a
// map boxed into a variadic argument handed to code not followed).
func dropEntries(c *cell, depth int) {
	if c == nil || depth > escapeDepth {
		return
	}
	if c.refSet && c.ref.obj != nil && c.ref.obj.entries != nil {
		c.ref.obj.entries = nil
	}
	for _, fc := range c.fields {
		dropEntries(fc, depth+1)
	}
}

// mayHoldUntracked reports whether v holds something the model cannot
// follow (an opaque value, a pointer to untracked memory, a slice whose
// elements are not tracked).
func mayHoldUntracked(v value, depth int) bool {
	if depth > escapeDepth {
		return false
	}
	switch {
	case v.expr != nil, v.nonNil != nil && v.obj == nil:
		return false
	case v.obj != nil:
		switch v.obj.kind {
		case objPtr:
			if isChoicePtr(v) {
				return false
			}
			return v.obj.cell == nil || v.obj.cell.untracked
		case objSlice:
			return v.obj.cell == nil && !v.obj.arbitrary
		case objClosure:
			for _, b := range v.obj.bindings {
				if mayHoldUntracked(b, depth+1) {
					return true
				}
			}
		}
		return false
	case v.fields != nil || v.tuple != nil:
		for _, fv := range append(append([]value(nil), v.fields...), v.tuple...) {
			if mayHoldUntracked(fv, depth+1) {
				return true
			}
		}
		return false
	}
	return true
}

// escapeValue havocs the cells v reaches.
func (t *translator) escapeValue(v value, depth int) {
	if depth > escapeDepth {
		return
	}
	if o := v.obj; o != nil {
		switch {
		case (o.kind == objPtr || o.kind == objSlice) && o.cell != nil:
			t.havocCell(o.cell, 0)
		case o.kind == objPtr:
			for _, a := range o.alts {
				t.escapeValue(value{obj: a}, depth+1)
			}
		case o.kind == objClosure:
			for _, b := range o.bindings {
				t.escapeValue(b, depth+1)
			}
			for _, a := range o.alts {
				t.escapeValue(value{obj: a}, depth+1)
			}
		}
	}
	for _, fv := range v.fields {
		t.escapeValue(fv, depth+1)
	}
	for _, tv := range v.tuple {
		t.escapeValue(tv, depth+1)
	}
}

// markUntracked flags the cells v points to as untracked memory.
func markUntracked(v value, depth int) {
	if depth > escapeDepth {
		return
	}
	if v.obj != nil && v.obj.cell != nil {
		v.obj.cell.untracked = true
		for _, fc := range v.obj.cell.fields {
			if fc != nil {
				fc.untracked = true
			}
		}
	}
	for _, fv := range v.fields {
		markUntracked(fv, depth+1)
	}
}

// maxChoice bounds the elements of a tracked array a variable index may
// select exactly (see choiceElem).
const maxChoice = 8

// choiceElem returns &x[idx] for an array of pointers the model tracks,
// indexed by a variable: a pointer to one of its element cells, the k-th
// when idx == k. (Other elements read this way are arbitrary values
// marked as approximations, and stores havoc the array: cheaper to
// verify than a choice among the elements.)
func (t *translator) choiceElem(x value, idx ir.Expr) (value, bool) {
	if x.obj == nil || x.obj.cell == nil || idx == nil || idx.Sort() != ir.Int {
		return value{}, false
	}
	if a, ok := x.obj.cell.typ.Underlying().(*types.Array); !ok || !isPointer(a.Elem()) {
		return value{}, false
	}
	n := len(x.obj.cell.fields)
	if n == 0 || n > maxChoice {
		return value{}, false
	}
	o := &object{kind: objPtr}
	for k := 0; k < n; k++ {
		c := t.field(x.obj.cell, k)
		if c == nil {
			return value{}, false
		}
		o.alts = append(o.alts, &object{kind: objPtr, cell: c})
		o.altConds = append(o.altConds, ir.Eq(idx, ir.IntLit(int64(k))))
	}
	return value{obj: o}, true
}

// isChoicePtr reports whether v is a pointer to one of several cells.
func isChoicePtr(v value) bool {
	return v.obj != nil && v.obj.kind == objPtr && v.obj.cell == nil && len(v.obj.alts) > 0
}

// loadChoice reads through a choice pointer: the selected cell's scalar,
// or a choice among the pointers the cells hold.
func (t *translator) loadChoice(o *object, name string) (value, bool) {
	vals := make([]value, len(o.alts))
	for k, a := range o.alts {
		if a.cell == nil {
			return value{}, false
		}
		vals[k] = t.load(a.cell, name)
	}
	if vals[0].expr != nil {
		out := vals[len(vals)-1].expr
		for k := len(vals) - 2; k >= 0; k-- {
			if vals[k].expr == nil || vals[k].expr.Sort() != out.Sort() {
				return value{}, false
			}
			out = ir.IteOf(o.altConds[k], vals[k].expr, out)
		}
		v := t.p.NewVar(name, out.Sort(), ir.Local)
		t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{out}, Info: t.info(ir.KindAssign, "")})
		return value{expr: v}, true
	}
	c := &object{kind: objPtr, altConds: o.altConds}
	for _, v := range vals {
		if v.obj == nil || v.obj.kind != objPtr || v.obj.cell == nil {
			return value{}, false
		}
		c.alts = append(c.alts, v.obj)
	}
	return value{obj: c}, true
}

// storeChoice writes v through a choice pointer: into the selected cell.
func (t *translator) storeChoice(o *object, v value) bool {
	if v.expr == nil {
		return false
	}
	for _, a := range o.alts {
		if a.cell == nil || a.cell.v == nil || a.cell.v.Type != convertSort(v.expr, a.cell.v.Type).Sort() {
			return false
		}
	}
	for k, a := range o.alts {
		cv := a.cell.v
		t.emit(&ir.Assign{Lhs: []*ir.Var{cv}, Rhs: []ir.Expr{ir.IteOf(o.altConds[k], convertSort(v.expr, cv.Type), cv)}, Info: t.info(ir.KindAssign, "")})
	}
	return true
}

// fieldChoice is &p.f for a choice pointer p.
func (t *translator) fieldChoice(o *object, i int) (value, bool) {
	c := &object{kind: objPtr, altConds: o.altConds}
	for _, a := range o.alts {
		if a.cell == nil || a.cell.fields == nil {
			return value{}, false
		}
		fc := t.field(a.cell, i)
		if fc == nil {
			return value{}, false
		}
		c.alts = append(c.alts, &object{kind: objPtr, cell: fc})
	}
	return value{obj: c}, true
}

// choicePhi turns a φ of pointers to tracked cells into a choice pointer,
// and a φ of statements or rows (`rows` assigned on two branches) or of
// known functions into an object with alternatives: a selector variable,
// assigned on each incoming edge, says which.
func (t *translator) choicePhi(f *frame, p *ssa.Phi, known []value, later []ssa.Value) (value, bool) {
	if len(later) > 0 || len(known) != len(p.Edges) || len(known) > maxChoice {
		return value{}, false
	}
	if v, ok := t.funcChoicePhi(f, p, known); ok {
		return v, true
	}
	kind := known[0].obj
	if kind == nil {
		return value{}, false
	}
	for _, v := range known {
		o := v.obj
		switch {
		case o == nil || o.kind != kind.kind || o.alts != nil:
			return value{}, false
		case o.kind == objPtr && o.cell != nil:
		case o.kind == objStmt || o.kind == objRow || o.kind == objRows:
		default:
			return value{}, false
		}
	}
	sel := t.p.NewVar(f.prefix+t.nameOf(f, p)+"$which", ir.Int, ir.Ghost)
	o := &object{kind: kind.kind}
	for k, v := range known {
		o.alts = append(o.alts, v.obj)
		o.altConds = append(o.altConds, ir.Eq(sel, ir.IntLit(int64(k))))
	}
	if f.phiSel == nil {
		f.phiSel = map[*ssa.Phi]*ir.Var{}
	}
	f.phiSel[p] = sel
	for _, v := range known {
		t.lose(v) // (stored elsewhere, they are still reached exactly through o)
	}
	return value{obj: o}, true
}

// funcChoicePhi is a φ of known functions, or nil, one per incoming edge
// (op = credit in one case of a switch, op = debit in another): a
// function value with one alternative per function, selected like
// choicePhi's, so that a call runs each on its branch, as for a table of
// operations; where the edge brings nil, no alternative holds and the
// call panics.
func (t *translator) funcChoicePhi(f *frame, p *ssa.Phi, known []value) (value, bool) {
	var edges []int // the edges that bring a function
	for k, v := range known {
		switch {
		case v.obj != nil && v.obj.kind == objNil:
		case isCallable(v.obj):
			edges = append(edges, k)
		default:
			return value{}, false
		}
	}
	if len(edges) == 0 {
		return value{}, false
	}
	sel := t.p.NewVar(f.prefix+t.nameOf(f, p)+"$which", ir.Int, ir.Ghost)
	o := &object{kind: objClosure}
	for _, k := range edges {
		o.alts = append(o.alts, known[k].obj)
		o.altConds = append(o.altConds, ir.Eq(sel, ir.IntLit(int64(k))))
	}
	if f.phiSel == nil {
		f.phiSel = map[*ssa.Phi]*ir.Var{}
	}
	f.phiSel[p] = sel
	return value{obj: o}, true
}

// isCallable reports whether o is a known function value (with or
// without bindings), not a choice among several.
func isCallable(o *object) bool {
	return o != nil && (o.kind == objFunc || o.kind == objClosure) && o.fn != nil && o.alts == nil
}

// sliceChoicePhi is a φ of slices whose elements the model knows on every
// incoming edge (args built by a literal, then appended to on a branch):
// a slice with one alternative per edge, selected like choicePhi's
// pointers, so that a query run with args... binds the elements of the
// one the path brings (sqlCall forks on them).
func (t *translator) sliceChoicePhi(f *frame, p *ssa.Phi) (value, bool) {
	if len(p.Edges) > maxChoice {
		return value{}, false
	}
	var known []value
	for _, e := range p.Edges {
		v, ok := t.peek(f, e)
		if !ok || v.obj == nil || v.obj.kind != objSlice || v.obj.cell == nil || v.obj.cell.fields == nil || v.obj.alts != nil {
			return value{}, false
		}
		known = append(known, v)
	}
	sel := t.p.NewVar(f.prefix+t.nameOf(f, p)+"$which", ir.Int, ir.Ghost)
	o := &object{kind: objSlice}
	for k, v := range known {
		o.alts = append(o.alts, v.obj)
		o.altConds = append(o.altConds, ir.Eq(sel, ir.IntLit(int64(k))))
	}
	o.length = known[len(known)-1].obj.length
	for k := len(known) - 2; k >= 0; k-- {
		o.length = ir.IteOf(o.altConds[k], known[k].obj.length, o.length)
	}
	if f.phiSel == nil {
		f.phiSel = map[*ssa.Phi]*ir.Var{}
	}
	f.phiSel[p] = sel
	for _, v := range known {
		t.lose(v) // (a write through the φ may write either)
	}
	return value{obj: o}, true
}

// Elements of input slices read twice at the same index.
//
// Two reads x[i] of an input slice with the same index value i, where the
// first read's block dominates the second's in the same frame, read the
// same element: the second reuses the first's cell, unless something that
// may write the slice's elements (a store through an untracked pointer,
// a call of outside code with a non-scalar argument, copy) was translated
// in between. Blocks are translated in reverse postorder, so everything
// on a path from the first read to the second is translated in between.

// elemKey identifies an element read: the slice and the index value.
type elemKey struct {
	o     *object
	index ssa.Value
}

// elemRead is the first read of an element.
type elemRead struct {
	f     *frame
	b     *ssa.BasicBlock
	c     *cell
	epoch int
}

// noteElement records the first read of x[i].
func (t *translator) noteElement(f *frame, i *ssa.IndexAddr, o *object, c *cell) {
	if t.elemReads == nil {
		t.elemReads = map[elemKey]elemRead{}
	}
	k := elemKey{o, i.Index}
	if _, ok := t.elemReads[k]; !ok {
		t.elemReads[k] = elemRead{f: f, b: i.Block(), c: c, epoch: t.writeEpoch}
	}
}

// sameElement returns the cell of an earlier read of the same element.
func (t *translator) sameElement(f *frame, i *ssa.IndexAddr, o *object) *cell {
	r, ok := t.elemReads[elemKey{o, i.Index}]
	if !ok || r.f != f || r.epoch != t.writeEpoch || !r.b.Dominates(i.Block()) {
		return nil
	}
	return r.c
}

// mayWriteElements notes that elements of input slices may have changed.
// A slice's followed element (collected.go) is no longer known either.
func (t *translator) mayWriteElements() {
	t.writeEpoch++
	for _, co := range t.collections {
		t.stopFollowing(co)
	}
}

func isPointer(typ types.Type) bool {
	_, ok := typ.Underlying().(*types.Pointer)
	return ok
}
