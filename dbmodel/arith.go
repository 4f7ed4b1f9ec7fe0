package dbmodel

import (
	"math/big"

	"github.com/dbverify/dbverify/ir"
)

// Arithmetic in each dialect's terms:
//   - Postgres and SQLite: "/" of two integers is the quotient truncated
//     toward zero (ir.OpDiv), of a decimal or real number exact division;
//   - MySQL: "/" is exact division into a DECIMAL whose scale is the
//     dividend's plus 4 (div_precision_increment), rounded half away from
//     zero; storing a DECIMAL into an integer column rounds it half away
//     from zero again. DIV is the quotient truncated toward zero;
//   - "%" (MOD) has the sign of the dividend in all three, as in Go.
//
// MySQL values built by "/" keep their exact decimal form (an integer N and
// a scale s, the value N/10^s) in lowerer.scaled, so that comparisons are
// exact and storing into an integer column rounds as MySQL does.

// scaledNum is the decimal n / 10^scale, n an integer expression.
type scaledNum struct {
	n     ir.Expr
	scale int
}

// arith is a op b for an arithmetic operator (+ - * / DIV % MOD).
func (m *lowerer) arith(op string, a, b sqlValue) sqlValue {
	x, y := m.toNum(a), m.toNum(b)
	num := func(e ir.Expr) sqlValue { return sqlValue{e: e, kind: kindNum} }
	switch op {
	case "+":
		return num(m.decimalArith(ir.OpAdd, x, y))
	case "-":
		return num(m.decimalArith(ir.OpSub, x, y))
	case "*":
		return num(m.decimalArith(ir.OpMul, x, y))
	case "/":
		if m.opt.Dialect == "mysql" {
			return num(m.mysqlDivide(x, y))
		}
		return num(ir.Arith(ir.OpDiv, x, y))
	case "DIV":
		if x.Sort() == ir.Int && y.Sort() == ir.Int {
			return num(ir.Arith(ir.OpDiv, x, y))
		}
		return num(m.approxVar("$div", ir.Int, "DIV of a non-integer"))
	}
	// % and MOD.
	if x.Sort() == ir.Int && y.Sort() == ir.Int {
		return num(ir.Arith(ir.OpMod, x, y))
	}
	return num(m.approxVar("$mod", ir.Real, "the remainder of a non-integer division"))
}

// negate is -v.
func (m *lowerer) negate(v sqlValue) sqlValue {
	x := m.toNum(v)
	out := ir.Neg(x)
	if d, ok := m.scaled[x]; ok {
		m.scaled[out] = scaledNum{n: ir.Neg(d.n), scale: d.scale}
	}
	return sqlValue{e: out, kind: kindNum}
}

// decimalArith is x op y (+ - *), keeping the exact decimal form of a
// MySQL quotient through the operation.
func (m *lowerer) decimalArith(op ir.Op, x, y ir.Expr) ir.Expr {
	e := ir.Arith(op, x, y)
	_, sx := m.scaled[x]
	_, sy := m.scaled[y]
	if !sx && !sy {
		return e
	}
	dx, ok1 := m.decimalOf(x)
	dy, ok2 := m.decimalOf(y)
	if !ok1 || !ok2 {
		return e
	}
	var d scaledNum
	switch op {
	case ir.OpAdd, ir.OpSub:
		s := max(dx.scale, dy.scale)
		d = scaledNum{n: ir.Arith(op, shift(dx.n, s-dx.scale), shift(dy.n, s-dy.scale)), scale: s}
	default:
		d = scaledNum{n: ir.Arith(ir.OpMul, dx.n, dy.n), scale: dx.scale + dy.scale}
	}
	e = fromScaled(d)
	m.scaled[e] = d
	return e
}

// mysqlDivide is MySQL's x / y: exact, rounded to the dividend's scale
// plus 4 decimals. Operands of unknown scale (DECIMAL columns) are divided
// exactly.
func (m *lowerer) mysqlDivide(x, y ir.Expr) ir.Expr {
	dx, ok1 := m.decimalOf(x)
	dy, ok2 := m.decimalOf(y)
	if !ok1 || !ok2 {
		return ir.Arith(ir.OpDiv, ir.AsReal(x), ir.AsReal(y))
	}
	// x/y = (nx/10^sx) / (ny/10^sy); at scale sx+4 its integer is
	// nx * 10^(sy+4) / ny.
	d := scaledNum{n: roundHalfAway(shift(dx.n, dy.scale+4), dy.n), scale: dx.scale + 4}
	e := fromScaled(d)
	m.scaled[e] = d
	return e
}

// decimalOf returns the exact decimal form of x: an integer, a decimal
// literal, or a value built by mysqlDivide.
func (m *lowerer) decimalOf(x ir.Expr) (scaledNum, bool) {
	if d, ok := m.scaled[x]; ok {
		return d, true
	}
	switch {
	case x.Sort() == ir.Int:
		return scaledNum{n: x}, true
	case x.Sort() == ir.Real:
		c, ok := x.(*ir.RealConst)
		if !ok {
			return scaledNum{}, false
		}
		ten := big.NewInt(10)
		for s, p := 0, big.NewInt(1); s <= 30; s, p = s+1, new(big.Int).Mul(p, ten) {
			v := new(big.Rat).Mul(c.V, new(big.Rat).SetInt(p))
			if v.IsInt() {
				return scaledNum{n: ir.BigInt(v.Num()), scale: s}, true
			}
		}
	}
	return scaledNum{}, false
}

// fromScaled is the real value n / 10^scale.
func fromScaled(d scaledNum) ir.Expr {
	if d.scale == 0 {
		return d.n
	}
	return ir.Arith(ir.OpDiv, ir.AsReal(d.n), ir.RealLit(new(big.Rat).SetInt(pow10(d.scale))))
}

// shift is n * 10^k.
func shift(n ir.Expr, k int) ir.Expr {
	if k == 0 {
		return n
	}
	return ir.Arith(ir.OpMul, n, ir.BigInt(pow10(k)))
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

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
