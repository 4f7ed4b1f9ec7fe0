package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"math/big"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Floating-point rounding. The model computes float arithmetic on exact
// reals, an assumption every result states. A SAFE proved that way is
// checked again on the entry translated with rounding (TranslateRounded):
// each float +, -, *, / gives a value r near the exact result e of its
// (already rounded) operands, as IEEE 754 round-to-nearest does:
//
//	|r - e| <= 2^-51 * |e|,  and r has e's sign (or is 0)
//
// 2^-51 covers the operation's rounding (2^-53) and that of a constant
// operand written in decimal (1.15 is not a float64). It over-approximates
// float64 (never fewer runs) for results in the normal range, so a SAFE
// on it holds for float64; a counterexample on it may be spurious (the
// rounding it picks may not be float64's), and is never reported as
// UNSAFE. Overflow to ±Inf, subnormal results (|x| < 2^-1022, where the
// error is absolute) and conversions of integers past 2^53 are not
// covered.

// roundingError is 2^-51: the relative error bound (see above).
func roundingError() *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 51))
}

// roundedFloat returns the result of float BinOp i on x and y as a value
// within rounding of the exact one (see above), when the translation
// rounds; ok is false for other operations.
func (t *translator) roundedFloat(f *frame, i *ssa.BinOp, x, y ir.Expr) (ir.Expr, bool) {
	if !t.rounding || !isFloatArith(i) {
		return nil, false
	}
	op := arithOps[i.Op]
	if i.Op == token.QUO {
		t.divPanic(i, y)
	}
	e := ir.Arith(op, x, y)
	r := t.p.NewVar(f.prefix+"fl("+t.nameOf(f, i)+")", ir.Real, ir.Local)
	abs := ir.IteOf(ir.Cmp(ir.OpGe, e, ir.RealLit(new(big.Rat))), e, ir.Neg(e))
	bound := ir.Arith(ir.OpMul, ir.RealLit(roundingError()), abs)
	zero := ir.RealLit(new(big.Rat))
	near := ir.And(
		ir.Cmp(ir.OpLe, ir.Sub(r, e), bound),
		ir.Cmp(ir.OpLe, ir.Sub(e, r), bound),
		ir.Implies(ir.Cmp(ir.OpGe, e, zero), ir.Cmp(ir.OpGe, r, zero)),
		ir.Implies(ir.Cmp(ir.OpLe, e, zero), ir.Cmp(ir.OpLe, r, zero)),
	)
	t.emit(&ir.Havoc{Vars: []*ir.Var{r}, Info: t.info(ir.KindModel, "")})
	t.nanDerived(r, e)
	t.emit(&ir.Assume{Cond: near, Info: t.info(ir.KindFact, "")})
	if !t.floatNoted {
		t.floatNoted = true
		file, line := t.l.position(i.Pos())
		t.p.Assume(fmt.Sprintf("floating-point results are rounded as float64 within 2^-51 relative error (%s at %s:%d, and any other); overflow to ±Inf, NaN from operands that are not NaN (0/0, Inf-Inf) and subnormal results are not modelled", i.Type(), file, line))
	}
	return r, true
}

// isFloatArith reports whether i is +, -, * or / on floats, with an
// operand that is not a constant.
func isFloatArith(i *ssa.BinOp) bool {
	b, ok := i.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsFloat == 0 {
		return false
	}
	switch i.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO:
	default:
		return false
	}
	_, xc := i.X.(*ssa.Const)
	_, yc := i.Y.(*ssa.Const)
	return !(xc && yc)
}

// exactFloatsNote begins the assumption an entry with float arithmetic
// states when translated on exact reals (noteFloat).
const exactFloatsNote = "floating-point arithmetic is exact"

// TranslateRounded is Translate with float arithmetic rounded (see
// above); nil when exact, fn's program from Translate, does no float
// arithmetic.
func (l *Loaded) TranslateRounded(fn *ssa.Function, exact *ir.Program) *ir.Program {
	found := false
	for _, a := range exact.Assumptions {
		found = found || strings.HasPrefix(a, exactFloatsNote)
	}
	if !found {
		return nil
	}
	return l.translate(fn, l.cfg.AssumeNoOverflow || exact.HasCycle(), true)
}
