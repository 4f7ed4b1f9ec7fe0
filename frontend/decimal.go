package frontend

import (
	"go/constant"
	"go/types"
	"math/big"
	"regexp"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// decimalPkg is the import path of github.com/shopspring/decimal, whose
// Decimal values the model treats as reals (see sortOf).
const decimalPkg = "github.com/shopspring/decimal"

// maxDecimalExp bounds the constant exponents (New's exp, Round's places,
// Shift's shift) the model turns into powers of ten; larger ones give
// arbitrary results.
const maxDecimalExp = 64

// decimalLitRE matches the constant strings NewFromString and
// RequireFromString are modelled for: plain decimal notation, which the
// library always parses.
var decimalLitRE = regexp.MustCompile(`^-?[0-9]{1,30}(\.[0-9]{1,30})?$`)

// isDecimal reports whether typ is decimal.Decimal (or an alias of it).
func isDecimal(typ types.Type) bool {
	if typ == nil {
		return false
	}
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == decimalPkg && n.Obj().Name() == "Decimal"
}

// isDecimalZero reports whether g is the package variable decimal.Zero.
// The model takes it to hold 0: programs do not assign to it.
func isDecimalZero(g *ssa.Global) bool {
	return g.Pkg != nil && g.Pkg.Pkg.Path() == decimalPkg && g.Name() == "Zero"
}

// decimalCall models a call of a function or method of
// github.com/shopspring/decimal. It returns ok=false for functions of any
// other package (path is the callee's package path, name its name, args
// the arguments with the receiver first).
//
// Exact operations (construction from integers and constants, Add, Sub,
// Mul, Neg, Abs, comparisons, Min, Max, Sum, Shift by a constant) become
// real arithmetic. Rounding operations with a constant precision (Round,
// RoundBank, RoundCeil, RoundFloor, RoundUp, RoundDown, Truncate, Floor,
// Ceil, IntPart) give an arbitrary result constrained to lie within one
// rounding unit of the argument, on the side the rounding mode allows.
// Everything else (Div, DivRound, Mod, Pow, conversions to strings and
// floats, pointer methods such as Scan) gives arbitrary results and
// havocs the memory its arguments reach, as for any unseen function.
func (t *translator) decimalCall(path, name string, fn *ssa.Function, args []value) (value, bool) {
	if path != decimalPkg {
		return value{}, false
	}
	sig := fn.Signature
	if sig.Recv() != nil {
		// A method with a Decimal (value) receiver, called directly or
		// through its wrapper for *Decimal; methods with a pointer
		// receiver (Scan, UnmarshalJSON, …) change it and are not modelled.
		if isDecimal(declaredRecv(fn)) && len(args) == sig.Params().Len()+1 {
			if v, ok := t.decimalMethod(name, sig, args); ok {
				return v, true
			}
		}
	} else if len(args) == sig.Params().Len() {
		if v, ok := t.decimalFunc(name, args); ok {
			return v, true
		}
	}
	// Not modelled: arbitrary results; memory handed over may change.
	t.escape(args)
	res := sig.Results()
	if res.Len() == 1 {
		// A single result is the call's value itself, not a tuple.
		return t.fresh("decimal."+name+"()", res.At(0).Type()), true
	}
	return t.fresh("decimal."+name+"()", res), true
}

// declaredRecv returns the receiver type of the method fn is or wraps
// (nil for a function).
func declaredRecv(fn *ssa.Function) types.Type {
	m, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	if r := m.Type().(*types.Signature).Recv(); r != nil {
		return r.Type()
	}
	return nil
}

// decimalFunc models the package-level functions of the decimal package.
func (t *translator) decimalFunc(name string, args []value) (value, bool) {
	switch name {
	case "NewFromInt", "NewFromInt32", "NewFromUint64", "NewFromFloat", "NewFromFloat32":
		// Integers convert exactly; floats are reals in the model (see doc.go).
		if len(args) == 1 && args[0].expr != nil && args[0].expr.Sort() != ir.Bool {
			return value{expr: ir.AsReal(args[0].expr)}, true
		}
	case "New":
		// New(value, exp) is value * 10^exp.
		if len(args) == 2 && args[0].expr != nil && args[0].expr.Sort() == ir.Int {
			if p, ok := pow10(args[1]); ok {
				return value{expr: ir.Arith(ir.OpMul, ir.AsReal(args[0].expr), p)}, true
			}
		}
	case "RequireFromString":
		if len(args) == 1 {
			if r, ok := decimalLit(args[0]); ok {
				return value{expr: r}, true
			}
		}
	case "NewFromString":
		if len(args) == 1 {
			if r, ok := decimalLit(args[0]); ok {
				return value{tuple: []value{{expr: r}, {expr: ir.False}}}, true
			}
		}
	case "Min", "Max":
		if xs, ok := t.decimalVariadic(args); ok {
			op := ir.OpLt
			if name == "Max" {
				op = ir.OpGt
			}
			out := xs[0]
			for _, x := range xs[1:] {
				// The library keeps the first of equal values; either is
				// the same number.
				out = ir.IteOf(ir.Cmp(op, x, out), x, out)
			}
			return value{expr: out}, true
		}
	case "Sum":
		if xs, ok := t.decimalVariadic(args); ok {
			out := xs[0]
			for _, x := range xs[1:] {
				out = ir.Add(out, x)
			}
			return value{expr: out}, true
		}
	}
	return value{}, false
}

// decimalMethod models the methods of decimal.Decimal; args[0] is the
// receiver and sig the method's signature.
func (t *translator) decimalMethod(name string, sig *types.Signature, args []value) (value, bool) {
	x, ok := t.decimalArg(args[0])
	if !ok {
		return value{}, false
	}
	// The other operand of methods of one Decimal parameter.
	var y ir.Expr
	if sig.Params().Len() == 1 && isDecimal(sig.Params().At(0).Type()) {
		y, _ = t.decimalArg(args[1])
	}
	binary := func(build func(x, y ir.Expr) ir.Expr) (value, bool) {
		if y == nil {
			return value{}, false
		}
		return value{expr: build(x, y)}, true
	}
	cmp := func(op ir.Op) func(x, y ir.Expr) ir.Expr {
		return func(x, y ir.Expr) ir.Expr { return ir.Cmp(op, x, y) }
	}
	zero := ir.Zero(ir.Real)
	switch name {
	case "Add":
		return binary(ir.Add)
	case "Sub":
		return binary(ir.Sub)
	case "Mul":
		return binary(func(x, y ir.Expr) ir.Expr { return ir.Arith(ir.OpMul, x, y) })
	case "Cmp", "Compare":
		return binary(sign3)
	case "Equal", "Equals":
		return binary(cmp(ir.OpEq))
	case "LessThan":
		return binary(cmp(ir.OpLt))
	case "LessThanOrEqual":
		return binary(cmp(ir.OpLe))
	case "GreaterThan":
		return binary(cmp(ir.OpGt))
	case "GreaterThanOrEqual":
		return binary(cmp(ir.OpGe))
	case "Neg":
		return value{expr: ir.Neg(x)}, true
	case "Abs":
		return value{expr: ir.IteOf(ir.Cmp(ir.OpLt, x, zero), ir.Neg(x), x)}, true
	case "Copy":
		return value{expr: x}, true
	case "Sign":
		return value{expr: sign3(x, zero)}, true
	case "IsPositive":
		return value{expr: ir.Cmp(ir.OpGt, x, zero)}, true
	case "IsNegative":
		return value{expr: ir.Cmp(ir.OpLt, x, zero)}, true
	case "IsZero":
		return value{expr: ir.Cmp(ir.OpEq, x, zero)}, true
	case "Shift":
		if len(args) == 2 {
			if p, ok := pow10(args[1]); ok {
				return value{expr: ir.Arith(ir.OpMul, x, p)}, true
			}
		}
	case "IntPart":
		return value{expr: t.truncate(x, "decimal.IntPart()")}, true
	case "Floor", "Ceil":
		return value{expr: t.rounded(x, ir.RealLit(big.NewRat(1, 1)), name, "decimal."+name+"()")}, true
	case "Round", "RoundBank", "RoundCeil", "RoundFloor", "RoundUp", "RoundDown", "Truncate":
		if len(args) == 2 {
			if p, ok := pow10(args[1]); ok {
				// places p rounds to a multiple of 10^-p.
				unit := new(big.Rat).Inv(p.(*ir.RealConst).V)
				return value{expr: t.rounded(x, ir.RealLit(unit), name, "decimal."+name+"()")}, true
			}
		}
	}
	return value{}, false
}

// decimalArg returns the real value of a Decimal argument: a scalar, or
// the content of the cell a *Decimal points to (a pointer receiver).
func (t *translator) decimalArg(v value) (ir.Expr, bool) {
	switch {
	case v.expr != nil && v.expr.Sort() != ir.Bool:
		return ir.AsReal(v.expr), true
	case v.obj != nil && v.obj.kind == objPtr && v.obj.cell != nil && v.obj.cell.v != nil && v.obj.cell.v.Type == ir.Real:
		return t.load(v.obj.cell, v.obj.cell.name).expr, true
	}
	return nil, false
}

// decimalVariadic returns the values of the arguments (first Decimal,
// rest ...Decimal) of Min, Max and Sum, when all of them are known.
func (t *translator) decimalVariadic(args []value) ([]ir.Expr, bool) {
	if len(args) != 2 {
		return nil, false
	}
	first, ok := t.decimalArg(args[0])
	if !ok {
		return nil, false
	}
	out := []ir.Expr{first}
	if args[1].obj != nil && args[1].obj.kind == objNil {
		return out, true // no further arguments
	}
	elems := t.sliceElems(args[1])
	if elems == nil {
		return nil, false
	}
	for _, e := range elems {
		x, ok := t.decimalArg(e)
		if !ok {
			return nil, false
		}
		// The element is a cell of the argument array: copy its value now.
		v := t.p.NewVar("decimal.arg", ir.Real, ir.Local)
		t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{x}, Info: t.info(ir.KindAssign, "")})
		out = append(out, v)
	}
	return out, true
}

// sign3 is -1, 0 or 1 as x is below, equal to or above y (Decimal.Cmp).
func sign3(x, y ir.Expr) ir.Expr {
	return ir.IteOf(ir.Cmp(ir.OpLt, x, y), ir.IntLit(-1),
		ir.IteOf(ir.Cmp(ir.OpEq, x, y), ir.IntLit(0), ir.IntLit(1)))
}

// pow10 returns 10^n as a real constant when v is a constant n with
// |n| <= maxDecimalExp.
func pow10(v value) (ir.Expr, bool) {
	c, ok := v.expr.(*ir.IntConst)
	if !ok || !c.V.IsInt64() {
		return nil, false
	}
	n := c.V.Int64()
	if n < -maxDecimalExp || n > maxDecimalExp {
		return nil, false
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(n)), nil)
	r := new(big.Rat).SetInt(p)
	if n < 0 {
		r.Inv(r)
	}
	return ir.RealLit(r), true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// decimalLit returns the value of a constant string in plain decimal
// notation.
func decimalLit(v value) (ir.Expr, bool) {
	if !v.strKnown || !decimalLitRE.MatchString(v.str) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(v.str)
	if !ok {
		return nil, false
	}
	return ir.RealLit(r), true
}

// truncate returns an integer variable holding x (an Int or Real
// expression) truncated toward zero, as Go's float-to-integer conversion
// and Decimal.IntPart compute it: |i| <= |x| < |i| + 1, with i on x's
// side of zero.
func (t *translator) truncate(x ir.Expr, name string) ir.Expr {
	if x.Sort() == ir.Int {
		return x
	}
	i := t.freshVar(name, ir.Int, ir.KindCall)
	ri := ir.AsReal(i)
	zero := ir.Zero(ir.Real)
	one := ir.RealLit(big.NewRat(1, 1))
	nonneg := ir.Cmp(ir.OpGe, x, zero)
	// The sign facts are implied by the bounds (i is an integer) but
	// stated on their own they give the refinement simple predicates.
	cond := ir.And(
		ir.Implies(nonneg, ir.And(ir.Cmp(ir.OpGe, i, ir.IntLit(0)), ir.Cmp(ir.OpLe, ri, x), ir.Cmp(ir.OpLt, x, ir.Add(ri, one)))),
		ir.Implies(ir.Not(nonneg), ir.And(ir.Cmp(ir.OpLe, i, ir.IntLit(0)), ir.Cmp(ir.OpLe, x, ri), ir.Cmp(ir.OpLt, ir.Sub(ri, one), x))),
	)
	t.emit(&ir.Assume{Cond: cond, Info: t.info(ir.KindModel, "")})
	return i
}

// rounded returns a real variable holding x rounded to a multiple of unit
// by the Decimal method mode. The model does not say that the result is a
// multiple of unit, only how far from x and on which side it lies.
func (t *translator) rounded(x, unit ir.Expr, mode, name string) ir.Expr {
	r := t.freshVar(name, ir.Real, ir.KindCall)
	d := ir.Sub(r, x) // r - x
	zero := ir.Zero(ir.Real)
	within := func(lo, hi ir.Expr) ir.Expr { return ir.And(ir.Cmp(ir.OpLe, lo, d), ir.Cmp(ir.OpLe, d, hi)) }
	below := ir.And(ir.Cmp(ir.OpLe, d, zero), ir.Cmp(ir.OpLt, ir.Neg(unit), d)) // x - unit < r <= x
	above := ir.And(ir.Cmp(ir.OpGe, d, zero), ir.Cmp(ir.OpLt, d, unit))         // x <= r < x + unit
	nonneg := ir.Cmp(ir.OpGe, x, zero)
	var cond ir.Expr
	switch mode {
	case "Round", "RoundBank":
		half := ir.Arith(ir.OpMul, unit, ir.RealLit(big.NewRat(1, 2)))
		cond = within(ir.Neg(half), half)
	case "Floor", "RoundFloor":
		cond = below
	case "Ceil", "RoundCeil":
		cond = above
	case "RoundUp":
		// Away from zero.
		cond = ir.And(ir.Implies(nonneg, above), ir.Implies(ir.Not(nonneg), below))
	case "RoundDown", "Truncate":
		// Toward zero: the result also keeps x's side of zero.
		cond = ir.And(
			ir.Implies(nonneg, ir.And(below, ir.Cmp(ir.OpGe, r, zero))),
			ir.Implies(ir.Not(nonneg), ir.And(above, ir.Cmp(ir.OpLe, r, zero))))
	default:
		return r
	}
	t.emit(&ir.Assume{Cond: cond, Info: t.info(ir.KindModel, "")})
	return r
}

// floatLit returns the value of a float32 or float64 constant as the
// shortest decimal that rounds to it (what strconv and
// decimal.NewFromFloat print), not its binary fraction: the model treats
// floats as the reals their source literals denote.
func floatLit(v constant.Value, typ types.Type) (*big.Rat, bool) {
	b, ok := typ.Underlying().(*types.Basic)
	if !ok {
		return nil, false
	}
	var text string
	switch b.Kind() {
	case types.Float64:
		f, _ := constant.Float64Val(v)
		text = strconv.FormatFloat(f, 'g', -1, 64)
	case types.Float32:
		f, _ := constant.Float32Val(v)
		text = strconv.FormatFloat(float64(f), 'g', -1, 32)
	default:
		return nil, false
	}
	return new(big.Rat).SetString(text)
}
