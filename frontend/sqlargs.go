package frontend

import (
	"go/types"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// sqlArgs returns the values bound to the placeholders, from the variadic
// argument slice (nil entries: unknown).
func (t *translator) sqlArgs(params value) []ir.Expr {
	elems := t.sliceElems(params)
	out := make([]ir.Expr, len(elems))
	t.argNulls, t.argUnsigned, t.argFloat = nil, nil, nil
	for i, e := range elems {
		out[i] = e.expr
		if val, null, ok := t.pointerArg(e, i); ok {
			// The driver binds what the pointer points to, NULL for nil.
			out[i] = val
			if null != nil {
				if t.argNulls == nil {
					t.argNulls = map[int]ir.Expr{}
				}
				t.argNulls[i] = null
			}
			continue
		}
		if why := approxIn(e, 0); e.expr == nil && why != "" {
			// A value the model cannot pass (a time.Time) computed by
			// code it approximates (t.Add(d)): the SQL sees an arbitrary
			// value, marked, so that a counterexample depending on it is
			// UNKNOWN, never UNSAFE (the model would otherwise take it
			// for an arbitrary argument like any input).
			v := t.freshVar("$arg()", ir.Int, ir.KindModel)
			v.Approx = why
			v.Time = isTime(e.dyn)
			out[i] = v
		} else if e.expr == nil && why == "" && isTime(e.dyn) {
			out[i] = t.timeArg(e)
		}
		if val, null, ok := nullableArg(e); ok {
			out[i] = val
			if t.argNulls == nil {
				t.argNulls = map[int]ir.Expr{}
			}
			t.argNulls[i] = null
		}
	}
	return out
}

// pointerArg returns, for a SQL argument that is a pointer to an integer
// or a string the model tracks, the value it points to (database/sql's
// default converter, pgx, go-sql-driver and lib/pq all dereference a
// pointer argument) and, for a pointer handed in from outside, "it is nil"
// (bound as NULL; nil for a pointer that cannot be nil).
func (t *translator) pointerArg(e value, i int) (val, null ir.Expr, ok bool) {
	if e.expr != nil || e.obj == nil || e.obj.kind != objPtr || e.obj.cell == nil || e.obj.cell.untracked {
		return nil, nil, false
	}
	if s, ok := sortOf(e.obj.cell.typ); !ok || s != ir.Int {
		return nil, nil, false
	}
	v := t.load(e.obj.cell, "*"+e.obj.cell.name)
	if v.expr == nil || v.expr.Sort() != ir.Int {
		return nil, nil, false
	}
	if e.nonNil != nil {
		null = ir.Not(e.nonNil)
	}
	return v.expr, null, true
}

// approxIn returns the note of an approximated scalar (ir.Var.Approx)
// that v holds in its fields, "" if none.
func approxIn(v value, depth int) string {
	if x, ok := v.expr.(*ir.Var); ok && x.Approx != "" {
		return x.Approx
	}
	if depth > 4 {
		return ""
	}
	for _, fv := range append(slices.Clone(v.fields), v.tuple...) {
		if why := approxIn(fv, depth+1); why != "" {
			return why
		}
	}
	return ""
}

// sliceElems returns the elements of a slice built from a known array
// (as the compiler does for variadic arguments), or nil.
func (t *translator) sliceElems(v value) []value {
	if v.obj == nil || v.obj.kind != objSlice || v.obj.cell == nil {
		return nil
	}
	c := v.obj.cell
	n := len(c.fields)
	if k, ok := v.obj.length.(*ir.IntConst); ok && k.V.IsInt64() && k.V.Int64() >= 0 && k.V.Int64() < int64(n) {
		n = int(k.V.Int64()) // a slice of the first elements of its array
	}
	out := make([]value, n)
	for i := range out {
		fc := t.field(c, i)
		switch {
		case fc.v != nil:
			out[i] = value{expr: fc.v}
		case fc.box != nil:
			out[i] = t.loadBox(fc, fc.name)
		case fc.refSet:
			out[i] = fc.ref
		case types.IsInterface(fc.typ) && fc.alloc.b != nil:
			// Never stored: nil, which a driver binds as NULL (not
			// modelled here): any value, marked.
			v := t.freshVar(fc.name, ir.Int, ir.KindModel)
			v.Approx = "the value of " + fc.name + ", an element the program never stored (nil), not modelled"
			out[i] = value{expr: v}
		}
	}
	return out
}

// untrackedArgs reports whether p, the argument slice of a SQL call, is a
// slice the program built whose elements the model does not track (no
// element known: an append in a loop, a copy), as opposed to an input's
// slice, whose elements are truly arbitrary.
func untrackedArgs(p value, elems []ir.Expr) bool {
	return len(elems) == 0 && p.obj != nil && p.obj.kind == objSlice && p.obj.cell == nil && !p.obj.arbitrary
}

// isTime reports whether typ is time.Time.
func isTime(typ types.Type) bool {
	n, ok := typ.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

// timeArg returns the number bound for time.Time value e, which the model
// does not compute (an entry's time.Time parameter): any number, the
// same one for every binding of a value with the same fields (the model
// orders times as numbers), marked ir.Var.Time so that a trace prints it
// as a timestamp. It was no value at all: the statement bound a fresh
// value per placeholder, and a trace printed the placeholder ($2).
func (t *translator) timeArg(e value) *ir.Var {
	var key [2]ir.Expr
	for k := 0; k < len(key) && k < len(e.fields); k++ {
		key[k] = e.fields[k].expr
	}
	if v, ok := t.times[key]; ok && key[0] != nil && key[1] != nil {
		return v
	}
	v := t.freshVar("$time()", ir.Int, ir.KindModel)
	v.Time = true
	v.TimeOf = timeInput(key)
	if key[0] != nil && key[1] != nil {
		if t.times == nil {
			t.times = map[[2]ir.Expr]*ir.Var{}
		}
		t.times[key] = v
	}
	return v
}

// timeInput is the wall field of the entry's time.Time input whose
// fields (wall, ext) key holds as they came in (nil for another time:
// time.Now(), a time the program computed).
func timeInput(key [2]ir.Expr) *ir.Var {
	wall, okW := key[0].(*ir.Var)
	ext, okE := key[1].(*ir.Var)
	if !okW || !okE || wall.Kind != ir.Input || ext.Kind != ir.Input {
		return nil
	}
	base, ok := strings.CutSuffix(wall.Name, ".wall")
	if !ok || ext.Name != base+".ext" {
		return nil
	}
	return wall
}
