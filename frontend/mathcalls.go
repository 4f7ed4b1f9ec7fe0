package frontend

import (
	"fmt"
	"go/types"

	"github.com/dbverify/dbverify/ir"
)

// mathCall models the functions of package math whose value on the reals
// is exact in the model (floats are reals, see doc.go): Abs, Max, Min;
// IsNaN(x), x's "is NaN" flag (floatnan.go); and IsInf, false for every
// real: the infinities are not reals, and a program that rejects them
// and one that does not get the same model (an infinity converted to an
// integer is out of range, as a large real is).
func (t *translator) mathCall(path, name string, args []value) (value, bool) {
	if path != "math" {
		return value{}, false
	}
	for _, a := range args {
		if a.expr == nil {
			return value{}, false
		}
	}
	switch {
	case name == "IsNaN" && len(args) == 1:
		return value{expr: t.isNaN(args[0].expr, "IsNaN()")}, true
	case name == "IsInf" && len(args) == 2:
		return value{expr: ir.False}, true
	case name == "Abs" && len(args) == 1:
		x := args[0].expr
		return value{expr: ir.IteOf(ir.Cmp(ir.OpLt, x, ir.Zero(x.Sort())), ir.Neg(x), x)}, true
	case name == "Max" && len(args) == 2:
		x, y := args[0].expr, args[1].expr
		return t.nanEither(name, ir.IteOf(ir.Cmp(ir.OpGe, x, y), x, y), x, y), true
	case name == "Min" && len(args) == 2:
		x, y := args[0].expr, args[1].expr
		return t.nanEither(name, ir.IteOf(ir.Cmp(ir.OpLe, x, y), x, y), x, y), true
	}
	return value{}, false
}

// nanEither returns e, math.Max's or math.Min's value on x and y,
// which is NaN when either is (floatnan.go): not the value ?: picks.
func (t *translator) nanEither(name string, e, x, y ir.Expr) value {
	if e.Sort() != ir.Real {
		return value{expr: e}
	}
	m := t.p.NewVar(name+"()", ir.Real, ir.Local)
	t.emit(&ir.Assign{Lhs: []*ir.Var{m}, Rhs: []ir.Expr{e}, Info: t.info(ir.KindAssign, "")})
	t.nanDerived(m, ir.Add(x, y)) // NaN when x or y is
	return value{expr: m}
}

// approxResult is the result of a library call the model does not
// compute although its arguments are values the model tracks
// (math.Round(x), t.Add(d), strings.Repeat(s, n)): arbitrary, and marked
// as an approximation (ir.Var.Approx), so that a counterexample whose
// run depends on it is UNKNOWN ("may be spurious") and never UNSAFE. A
// call with no tracked argument (time.Now()) reads the environment: its
// arbitrary result is an input like any other.
func (t *translator) approxResult(path, name string, args []value, results *types.Tuple) value {
	v := t.fresh(name+"()", results)
	if !anyTracked(args) {
		return v
	}
	markValueApprox(v, fmt.Sprintf("the result of %s.%s at %s, which the model does not compute", path, name, t.posString(t.pos)))
	return v
}

// anyTracked reports whether one of args holds a value the model tracks
// (a scalar, or a struct with one).
func anyTracked(args []value) bool {
	for _, a := range args {
		if a.expr != nil || anyTracked(a.fields) || anyTracked(a.tuple) {
			return true
		}
	}
	return false
}
