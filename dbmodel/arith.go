package dbmodel

import (
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Arithmetic in each dialect's terms (checked on the engines):
//   - Postgres and SQLite: "/" of two integers is the quotient truncated
//     toward zero (ir.OpDiv), of a decimal or real number exact division;
//   - MySQL: "/" is exact division into a DECIMAL (SELECT 7/2 is 3.5000;
//     1/3*3 >= 1 holds: the quotient keeps more digits than it shows), and
//     storing a DECIMAL into an integer column rounds it half away from
//     zero (1 - 3/2 stores -1). DIV is the quotient truncated toward zero;
//   - "%" (MOD) has the sign of the dividend in all three, as in Go.
//
// A MySQL value built by "/" keeps its exact form as a fraction of two
// integer expressions in lowerer.fracs, so that storing it into an integer
// column rounds as MySQL does.

// fraction is the rational num / den (den ≠ 0), both integer expressions.
type fraction struct{ num, den ir.Expr }

// arith is a op b for an arithmetic operator (+ - * / DIV %).
func (m *lowerer) arith(op sqlir.Op, a, b sqlValue) sqlValue {
	x, y := m.toNum(a, b.e.Sort()), m.toNum(b, a.e.Sort())
	num := func(e ir.Expr) sqlValue { return sqlValue{e: e, kind: kindNum} }
	switch op {
	case sqlir.OpAdd:
		return num(m.fracArith(ir.OpAdd, x, y))
	case sqlir.OpSub:
		return num(m.fracArith(ir.OpSub, x, y))
	case sqlir.OpMul:
		return num(m.fracArith(ir.OpMul, x, y))
	case sqlir.OpDiv:
		if m.opt.Dialect == "mysql" {
			return num(m.fracArith(ir.OpDiv, x, y))
		}
		return num(ir.Arith(ir.OpDiv, x, y))
	case sqlir.OpDivInt:
		if x.Sort() == ir.Int && y.Sort() == ir.Int {
			return num(ir.Arith(ir.OpDiv, x, y))
		}
		return num(m.approxVar("$div", ir.Int, "DIV of a non-integer"))
	}
	// OpMod.
	if x.Sort() == ir.Int && y.Sort() == ir.Int {
		return num(ir.Arith(ir.OpMod, x, y))
	}
	return num(m.approxVar("$mod", ir.Real, "the remainder of a non-integer division"))
}

// negate is -v.
func (m *lowerer) negate(v sqlValue) sqlValue {
	x := m.toNum(v, ir.Int)
	out := ir.Neg(x)
	if f, ok := m.fracs[x]; ok {
		m.fracs[out] = fraction{num: ir.Neg(f.num), den: f.den}
	}
	return sqlValue{e: out, kind: kindNum}
}

// fracArith is x op y (+ - * and exact /), keeping the exact fraction of
// a MySQL quotient through the operation. Operands of unknown form (DECIMAL
// columns) give a plain real result.
func (m *lowerer) fracArith(op ir.Op, x, y ir.Expr) ir.Expr {
	_, fx := m.fracs[x]
	_, fy := m.fracs[y]
	if op != ir.OpDiv && !fx && !fy {
		return ir.Arith(op, x, y)
	}
	e := ir.Arith(op, ir.AsReal(x), ir.AsReal(y))
	a, ok1 := m.fractionOf(x)
	b, ok2 := m.fractionOf(y)
	if !ok1 || !ok2 {
		return e
	}
	mul := func(p, q ir.Expr) ir.Expr { return ir.Arith(ir.OpMul, p, q) }
	var f fraction
	switch op {
	case ir.OpAdd, ir.OpSub:
		f = fraction{num: ir.Arith(op, mul(a.num, b.den), mul(b.num, a.den)), den: mul(a.den, b.den)}
	case ir.OpMul:
		f = fraction{num: mul(a.num, b.num), den: mul(a.den, b.den)}
	default:
		f = fraction{num: mul(a.num, b.den), den: mul(a.den, b.num)}
	}
	m.fracs[e] = f
	return e
}

// fractionOf returns x as a fraction: an integer, a rational literal, or a
// value built by fracArith.
func (m *lowerer) fractionOf(x ir.Expr) (fraction, bool) {
	if f, ok := m.fracs[x]; ok {
		return f, true
	}
	switch c := x.(type) {
	case *ir.RealConst:
		return fraction{num: ir.BigInt(c.V.Num()), den: ir.BigInt(c.V.Denom())}, true
	}
	if x.Sort() == ir.Int {
		return fraction{num: x, den: ir.IntLit(1)}, true
	}
	return fraction{}, false
}

// roundHalfAway is the integer n / d rounded half away from zero (n, d
// integers).
func roundHalfAway(n, d ir.Expr) ir.Expr {
	q := ir.Arith(ir.OpDiv, n, d) // truncated toward zero
	r := ir.Arith(ir.OpMod, n, d) // with the sign of n
	abs := func(e ir.Expr) ir.Expr { return ir.IteOf(ir.Cmp(ir.OpLt, e, ir.IntLit(0)), ir.Neg(e), e) }
	sameSign := ir.Cmp(ir.OpEq, ir.Cmp(ir.OpLt, n, ir.IntLit(0)), ir.Cmp(ir.OpLt, d, ir.IntLit(0)))
	away := ir.Arith(ir.OpAdd, q, ir.IteOf(sameSign, ir.IntLit(1), ir.IntLit(-1)))
	return ir.IteOf(ir.Cmp(ir.OpGe, ir.Arith(ir.OpMul, ir.IntLit(2), abs(r)), abs(d)), away, q)
}
