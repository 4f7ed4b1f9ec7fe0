package frontend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Bitwise operators on integers. The forms programs use on amounts are
// arithmetic, and computed exactly:
//
//   - x >> k for a constant k is ⌊x / 2^k⌋ (Go's >> of a signed integer is
//     arithmetic: it rounds toward −∞);
//   - x << k for a constant k is x·2^k wrapped into x's type;
//   - x & (2^k − 1) (a mask of the low bits) is x mod 2^k, never negative;
//   - ^x is −x − 1 (signed) or max − x (unsigned);
//   - x | 0, x ^ 0 and x &^ 0 are x.
//
// Any other bitwise result (a shift by a variable, x | y, x ^ y, other
// masks) is an arbitrary value of the type, marked as an approximation
// (ir.Var.Approx): a counterexample that depends on it is UNKNOWN, never
// UNSAFE. They were arbitrary and unmarked: q := cents >> 7 then
// `if q <= 0` gave an UNSAFE with cents = 0, for which q is 0 (independent
// tester adv10 m3). A shift by a negative variable count panics in Go; a
// shift by a variable is only approximated, its panic path is added.

// bitwise returns the value of the bitwise operation i on integers, or
// false when i is not one.
func (t *translator) bitwise(f *frame, i *ssa.BinOp, x, y ir.Expr) (value, bool) {
	switch i.Op {
	case token.SHL, token.SHR, token.AND, token.OR, token.XOR, token.AND_NOT:
	default:
		return value{}, false
	}
	r, ok := rangeOf(i.Type())
	if !ok {
		return value{}, false
	}
	_, xc := i.X.(*ssa.Const)
	if !xc {
		t.emit(&ir.Assume{Cond: r.holds(x), Info: t.info(ir.KindFact, "")})
	}
	k, kc := constInt(i.Y)
	if !kc {
		if yr, ok := rangeOf(i.Y.Type()); ok {
			t.emit(&ir.Assume{Cond: yr.holds(y), Info: t.info(ir.KindFact, "")})
		}
	}
	if e, ok := exactBitwise(i.Op, r, x, k, kc); ok {
		return value{expr: e}, true
	}
	if (i.Op == token.SHL || i.Op == token.SHR) && !kc && t.runtimePanics() {
		if b, ok := i.Y.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned == 0 {
			t.panicIf(ir.Cmp(ir.OpLt, y, ir.IntLit(0)), "panic: negative shift amount")
		}
	}
	v := t.freshVar(f.prefix+i.Name(), ir.Int, ir.KindModel)
	file, line := t.l.position(i.Pos())
	v.Approx = fmt.Sprintf("the result of %s %s %s at %s:%d (bitwise operators other than shifts by a constant and masks of the low bits are not modelled)", t.exprName(f, i.X), i.Op, t.exprName(f, i.Y), file, line)
	t.emit(&ir.Assume{Cond: r.holds(v), Info: t.info(ir.KindFact, "")})
	return value{expr: v}, true
}

// exactBitwise returns x op k for the forms computed exactly (see above);
// kc says whether the right operand is the constant k.
func exactBitwise(op token.Token, r intRange, x ir.Expr, k *big.Int, kc bool) (ir.Expr, bool) {
	if !kc {
		return nil, false
	}
	width := r.mod.BitLen() - 1
	switch op {
	case token.OR, token.XOR, token.AND_NOT:
		if k.Sign() == 0 {
			return x, true
		}
	case token.SHR:
		if k.Sign() < 0 {
			return nil, false
		}
		if k.Cmp(big.NewInt(int64(width))) >= 0 {
			if r.signed {
				return ir.IteOf(ir.Cmp(ir.OpLt, x, ir.IntLit(0)), ir.IntLit(-1), ir.IntLit(0)), true
			}
			return ir.IntLit(0), true
		}
		p := new(big.Int).Lsh(big.NewInt(1), uint(k.Int64()))
		// ⌊x / p⌋ = (x − (x mod p)) / p, the remainder taken non-negative.
		return ir.Arith(ir.OpDiv, ir.Sub(x, nonNegMod(x, p)), ir.BigInt(p)), true
	case token.SHL:
		if k.Sign() < 0 {
			return nil, false
		}
		if k.Cmp(big.NewInt(int64(width))) >= 0 {
			return ir.IntLit(0), true
		}
		p := new(big.Int).Lsh(big.NewInt(1), uint(k.Int64()))
		return wrapInto(r, ir.Arith(ir.OpMul, x, ir.BigInt(p))), true
	case token.AND:
		// A mask of the low bits: k = 2^b − 1.
		if k.Sign() > 0 && new(big.Int).And(k, new(big.Int).Add(k, big.NewInt(1))).Sign() == 0 {
			return nonNegMod(x, new(big.Int).Add(k, big.NewInt(1))), true
		}
		if k.Sign() == 0 {
			return ir.IntLit(0), true
		}
	}
	return nil, false
}

// nonNegMod returns x mod p in [0, p) (Go's % keeps the dividend's sign).
func nonNegMod(x ir.Expr, p *big.Int) ir.Expr {
	m := ir.Arith(ir.OpMod, x, ir.BigInt(p))
	return ir.IteOf(ir.Cmp(ir.OpLt, m, ir.IntLit(0)), ir.Add(m, ir.BigInt(p)), m)
}

// wrapInto returns the value of e reduced into r, as Go's arithmetic
// wraps it.
func wrapInto(r intRange, e ir.Expr) ir.Expr {
	if !r.signed {
		return nonNegMod(e, r.mod)
	}
	half := new(big.Int).Neg(r.lo)
	return ir.Sub(nonNegMod(ir.Add(e, ir.BigInt(half)), r.mod), ir.BigInt(half))
}

// constInt returns the value of an integer constant.
func constInt(v ssa.Value) (*big.Int, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return nil, false
	}
	n, ok := new(big.Int).SetString(c.Value.ExactString(), 10)
	return n, ok
}

// complement returns ^x of an integer type: −x − 1, or max − x unsigned.
func complement(r intRange, x ir.Expr) ir.Expr {
	if r.signed {
		return ir.Sub(ir.Neg(x), ir.IntLit(1))
	}
	return ir.Sub(ir.BigInt(r.hi), x)
}
