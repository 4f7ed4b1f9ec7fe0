package frontend

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Scalars boxed in interface cells (the elements of a []any argument
// slice, an `any` variable whose address is taken).
//
// The content of an object cell (cell.ref) is translation-time state:
// what the last store translated put there, whatever path leads to it. A
// scalar boxed in an interface cell is kept path by path instead: the cell
// gets a model variable (cell.box), assigned at each store, and a use
// reads a copy of it, so that the value a SQL statement binds is the one
// stored on the path taken (args := []any{amt, id}; if chargeback {
// args[0] = -amt }), also around a loop. While a single store ran, a use
// in the same block of the same frame reads the stored value itself:
// the store ran just before it on every path (the variadic arguments of
// db.Exec(q, a, b), built in the block of the call, keep the values
// themselves).
//
// What is not tracked stays a marked approximation (ir.Var.Approx): a
// cell that holds another kind of value on some paths, code the model
// does not see that receives the cell, and a first store in another block
// than the allocation (the cell is nil on paths that skip it).

// blockNow is the block being translated in the innermost frame.
func (t *translator) blockNow() blockStamp {
	f := t.curFrame()
	if f == nil {
		return blockStamp{}
	}
	return blockStamp{f: f, b: f.block}
}

// direct reports whether the only store so far into a cell, which ran
// at at, is the last one on every path to here: at is this block, or the
// block of an outer frame whose call led here (db.Exec(q, args...) in a
// helper called with variadic arguments) through blocks of no loop; a
// later store (in translation order) then cannot come between.
func (t *translator) direct(at blockStamp) bool {
	for k := len(t.frames) - 1; k >= 0; k-- {
		f := t.frames[k]
		if f == at.f {
			return f.block == at.b
		}
		if t.inLoop(f.block) {
			return false
		}
	}
	return false
}

// inLoop reports whether block b lies on a cycle of its function (nil,
// code after the blocks: assumed so).
func (t *translator) inLoop(b *ssa.BasicBlock) bool {
	return b == nil || t.reaches(b, b)
}

// boxSort is the sort of the scalar v boxed in an interface, if the model
// keeps it in a box: an integer, a string or a bool.
func boxSort(v value) (ir.Sort, bool) {
	if v.expr == nil || v.obj != nil || v.fields != nil || v.tuple != nil || v.boxed == nil {
		return 0, false
	}
	b, ok := v.boxed.Underlying().(*types.Basic)
	if !ok {
		return 0, false
	}
	s, ok := sortOf(b)
	if !ok || s == ir.Real || s != v.expr.Sort() {
		return 0, false
	}
	return s, true
}

// storeBox stores v into the interface cell c path by path, if c keeps
// a box (see above); false leaves the store to the flow-insensitive
// content.
func (t *translator) storeBox(c *cell, v value) bool {
	if !types.IsInterface(c.typ) || c.v != nil || c.fields != nil {
		return false
	}
	s, ok := boxSort(v)
	if c.box == nil {
		if !ok || c.refSet || c.input || c.untracked || c.alloc.b == nil {
			return false
		}
		c.box = t.p.NewVar(c.name, s, ir.Local)
		c.box.Str = isStringType(v.boxed)
		if now := t.blockNow(); now != c.alloc {
			c.box.Approx = fmt.Sprintf("the value of %s, first stored at %s, not at its allocation (nil on paths that skip the store, not tracked)", c.name, t.posString(t.pos))
		}
		t.emit(&ir.Assign{Lhs: []*ir.Var{c.box}, Rhs: []ir.Expr{v.expr}, Info: t.info(ir.KindModel, "")})
		c.direct, c.at = v, t.blockNow()
		c.ref, c.refSet, c.impl = v, true, nil
		c.dynType = nil
		c.ref.expr = c.box
		return true
	}
	c.direct, c.at, c.impl = value{}, blockStamp{}, nil
	c.dynType = nil
	if !ok || s != c.box.Type || isStringType(v.boxed) != c.box.Str {
		// Another kind of value on this path: the box holds any value,
		// marked.
		t.havocBox(c, fmt.Sprintf("the value of %s, which holds a value of another type stored at %s on some paths (not tracked)", c.name, t.posString(t.pos)))
		return true
	}
	t.emit(&ir.Assign{Lhs: []*ir.Var{c.box}, Rhs: []ir.Expr{v.expr}, Info: t.info(ir.KindModel, "")})
	keep := value{expr: c.box}
	if c.ref.boxed != nil && types.Identical(c.ref.boxed, v.boxed) {
		keep.boxed = v.boxed
	}
	if sameValue(c.ref, v) {
		keep.str, keep.strKnown = v.str, v.strKnown
	}
	c.ref = keep
	return true
}

// havocBox gives the box of c an arbitrary value marked with why.
func (t *translator) havocBox(c *cell, why string) {
	h := t.p.NewVar(c.box.Name, c.box.Type, ir.Local)
	h.Approx, h.Str = why, c.box.Str
	t.emit(&ir.Havoc{Vars: []*ir.Var{h}, Info: t.info(ir.KindCall, "")})
	t.emit(&ir.Assign{Lhs: []*ir.Var{c.box}, Rhs: []ir.Expr{h}, Info: t.info(ir.KindModel, "")})
	c.direct, c.at, c.impl = value{}, blockStamp{}, nil
	c.dynType = nil
	c.ref = value{expr: c.box}
}

// loadBox reads the scalar of a cell with a box: the stored value itself
// where its only store ran just before (see direct), else a copy of the
// box.
func (t *translator) loadBox(c *cell, name string) value {
	if c.at.b != nil && t.direct(c.at) {
		return c.direct
	}
	v := t.p.NewVar(name, c.box.Type, ir.Local)
	v.Str = c.box.Str
	t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{c.box}, Info: t.info(ir.KindModel, "")})
	r := c.ref
	r.expr = v
	return r
}
