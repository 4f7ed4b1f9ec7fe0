package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// showConversion names the value of a conversion of a named Go value
// (int32(bal), float64(n), string(b)) as the source writes it, or a
// conversion of an expression after the variable it initialises (fee :=
// int64(x * pct)), so that a trace shows the converted value at its
// step, beside the value converted where they differ (ir.Var.ConvOf). A
// constant's conversion, or one with no Go name, is left as it is.
func (t *translator) showConversion(f *frame, i *ssa.Convert, v value) value {
	if v.expr == nil {
		return v
	}
	if _, isConst := i.X.(*ssa.Const); isConst {
		return v
	}
	s, ok := sortOf(i.Type())
	if !ok || v.expr.Sort() != s {
		return v
	}
	name, ok := "", false
	if operand, named := goExpr(f, i.X, 0); named {
		typ := types.TypeString(i.Type(), func(p *types.Package) string { return p.Name() })
		name, ok = typ+"("+operand+")", true
	} else {
		// fee := int64(float64(amount) * pct): the variable's name.
		name, ok = f.names[i]
	}
	if !ok {
		return v
	}
	nv := t.p.NewVar(f.prefix+name, s, ir.Local)
	nv.Str = isStringType(i.Type())
	nv.Conv = true
	_, fromOK := sortOf(i.X.Type())
	nv.ConvAny = !fromOK || isString(i.Type()) != isString(i.X.Type())
	if x, isVar := t.val(f, i.X).expr.(*ir.Var); isVar && !nv.ConvAny {
		nv.ConvOf = x
	}
	t.emit(&ir.Assign{Lhs: []*ir.Var{nv}, Rhs: []ir.Expr{v.expr}, Info: t.info(ir.KindAssign, "")})
	return value{expr: nv}
}
