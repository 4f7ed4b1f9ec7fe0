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
// each float +, -, *, / and each conversion that may round (an integer
// wider than the float's mantissa, a float64 to float32) gives a value r
// near the exact result e of its (already rounded) operands, as IEEE 754
// round-to-nearest does:
//
//	|r - e| <= 2^-51 * |e|,  and r has e's sign (or is 0)
//
// (2^-23 for float32, whose rounding is 2^-24). 2^-51 covers the
// operation's rounding (2^-53) and that of a constant
// operand written in decimal (1.15 is not a float64). It over-approximates
// float64 (never fewer runs) for results in the normal range, so a SAFE
// on it holds for float64; a counterexample on it may be spurious (the
// rounding it picks may not be float64's), and is never reported as
// UNSAFE. Overflow to ±Inf and subnormal results (|x| < 2^-1022, where
// the error is absolute) are not covered.

// roundingError is the relative error bound of a result of type typ
// (see above): 2^-51 for float64, 2^-23 for float32 (whose rounding is
// 2^-24).
func roundingError(typ types.Type) *big.Rat {
	bits := uint(51)
	if b, ok := typ.Underlying().(*types.Basic); ok && b.Kind() == types.Float32 {
		bits = 23
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), bits))
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
	return t.near(f, "fl("+t.nameOf(f, i)+")", ir.Arith(op, x, y), i.Type(), i.Pos()), true
}

// near is a value within rounding of the exact value e of type typ (a
// fresh variable r with |r - e| <= err·|e| and e's sign), stating the
// rounding assumption once per entry.
func (t *translator) near(f *frame, name string, e ir.Expr, typ types.Type, pos token.Pos) ir.Expr {
	r := t.p.NewVar(f.prefix+name, ir.Real, ir.Local)
	abs := ir.IteOf(ir.Cmp(ir.OpGe, e, ir.RealLit(new(big.Rat))), e, ir.Neg(e))
	bound := ir.Arith(ir.OpMul, ir.RealLit(roundingError(typ)), abs)
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
		file, line := t.l.position(pos)
		t.p.Assume(fmt.Sprintf("floating-point results are rounded within 2^-51 relative error for float64, 2^-23 for float32 (%s at %s:%d, and any other); overflow to ±Inf, NaN from operands that are not NaN (0/0, Inf-Inf) and subnormal results are not modelled", typ, file, line))
	}
	return r
}

// convertedFloat is the value of conversion i to a float type of the
// exact value e of its operand: e itself when the conversion is exact
// (float32 to float64; an integer type of at most 24 bits, or 53 for
// float64; a constant), else — an integer past 2^24 (float32) or 2^53
// (float64), a float64 to float32 — e on exact reals, with the exactness
// stated, and within rounding of e when the translation rounds
// (adv9 m11: float32(16777217) == float32(16777216), so a check
// float32(bal) < float32(cents) let a debit of 2^24+1 pass a balance of
// 2^24).
func (t *translator) convertedFloat(f *frame, i *ssa.Convert, e ir.Expr) ir.Expr {
	to, ok := i.Type().Underlying().(*types.Basic)
	from, ok2 := i.X.Type().Underlying().(*types.Basic)
	if !ok || !ok2 || to.Info()&types.IsFloat == 0 {
		return e
	}
	if _, c := i.X.(*ssa.Const); c || exactConversion(from, to) {
		return e
	}
	if !t.rounding {
		t.noteFloatAt(i.Pos(), to.Name()+" conversion")
		return e
	}
	return t.near(f, "fl("+t.nameOf(f, i)+")", e, i.Type(), i.Pos())
}

// exactConversion reports whether every value of from is a value of the
// float type to.
func exactConversion(from, to *types.Basic) bool {
	mantissa := int64(53)
	if to.Kind() == types.Float32 {
		mantissa = 24
	}
	switch {
	case from.Info()&types.IsFloat != 0:
		return from.Kind() == types.Float32 || to.Kind() == types.Float64
	case from.Info()&types.IsInteger != 0:
		sizes := types.SizesFor("gc", "amd64")
		bits := 8 * sizes.Sizeof(from)
		if from.Info()&types.IsUnsigned == 0 {
			bits-- // the sign bit
		}
		return bits <= mantissa
	}
	return true
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
