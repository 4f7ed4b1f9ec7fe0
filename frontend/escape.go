package frontend

import (
	"fmt"
	"go/types"
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
		t.markApproxDeep(c, why, 0)
		t.havocCell(c, 0)
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

// storeUntracked models a store of v through a pointer (to a typ value)
// the model does not track.
func (t *translator) storeUntracked(typ types.Type, v value) {
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
		if t.escapeValue(v, 0) {
			opaque = true
		}
		t.lose(v) // the code may keep what it was given
	}
	if opaque && len(t.escaped) > 0 {
		file, line := t.l.position(t.pos)
		t.clobber(nil, fmt.Sprintf("code the model does not see (%s:%d) may have written it", file, line))
	}
}

// escapeValue havocs the cells v reaches and reports whether v holds
// something the model cannot follow.
func (t *translator) escapeValue(v value, depth int) (opaque bool) {
	if depth > escapeDepth {
		return false
	}
	switch {
	case v.expr != nil:
		return false
	case v.obj != nil:
		switch v.obj.kind {
		case objPtr:
			if v.obj.cell == nil || v.obj.cell.untracked {
				return true
			}
			t.havocCell(v.obj.cell, 0)
			return false
		case objSlice:
			if v.obj.cell != nil {
				t.havocCell(v.obj.cell, 0)
				return false
			}
			return !v.obj.arbitrary
		case objClosure:
			for _, b := range v.obj.bindings {
				if t.escapeValue(b, depth+1) {
					opaque = true
				}
			}
			return opaque
		}
		return false
	case v.fields != nil || v.tuple != nil:
		for _, fv := range append(append([]value(nil), v.fields...), v.tuple...) {
			if t.escapeValue(fv, depth+1) {
				opaque = true
			}
		}
		return opaque
	}
	return v.nonNil == nil
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
