package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"math/big"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Go's integer arithmetic wraps around: int64(1<<62) * 4 is 0, and
// amount + fee may be negative for two positive operands. The model
// computes +, -, * and / of integers exactly as Go does: the
// mathematical result reduced into the type's range. The operands of
// such an operation are of its type, so they lie in its range: that is
// assumed where the operation runs (a fact of Go, not a restriction on
// the program's inputs), so that a counterexample never needs an int64
// greater than 2^63-1.
//
// Config.AssumeNoOverflow restores mathematical integers (the result as
// if no operation overflowed), printed as an assumption of every result
// that uses it; so does an entry with a loop (see Translate).

// intRange is the range of an integer type: [lo, hi], 2^width values.
type intRange struct {
	lo, hi, mod *big.Int
	signed      bool
}

// rangeOf returns the range of an integer type.
func rangeOf(typ types.Type) (intRange, bool) {
	b, ok := typ.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return intRange{}, false
	}
	w := uint(types.SizesFor("gc", "amd64").Sizeof(b) * 8)
	mod := new(big.Int).Lsh(big.NewInt(1), w)
	if b.Info()&types.IsUnsigned != 0 {
		return intRange{lo: big.NewInt(0), hi: new(big.Int).Sub(mod, big.NewInt(1)), mod: mod}, true
	}
	half := new(big.Int).Lsh(big.NewInt(1), w-1)
	return intRange{lo: new(big.Int).Neg(half), hi: new(big.Int).Sub(half, big.NewInt(1)), mod: mod, signed: true}, true
}

// holds returns lo <= x <= hi.
func (r intRange) holds(x ir.Expr) ir.Expr {
	return ir.And(ir.Cmp(ir.OpGe, x, ir.BigInt(r.lo)), ir.Cmp(ir.OpLe, x, ir.BigInt(r.hi)))
}

// wrapArith returns the value of the integer operation i as Go computes
// it, or false when i is not one that can wrap around (an operation on
// constants only is folded by the compiler).
func (t *translator) wrapArith(i *ssa.BinOp, x, y ir.Expr) (ir.Expr, bool) {
	switch i.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
	default:
		return nil, false
	}
	r, ok := rangeOf(i.Type())
	if !ok || t.noOverflow {
		return nil, false
	}
	_, xc := i.X.(*ssa.Const)
	_, yc := i.Y.(*ssa.Const)
	if xc && yc {
		return nil, false
	}
	var facts []ir.Expr
	if !xc {
		facts = append(facts, r.holds(x))
	}
	if !yc {
		facts = append(facts, r.holds(y))
	}
	// The operands are in range also where the operation cannot wrap (a
	// quotient by a constant, a remainder): without it, earned := cents /
	// 100 took cents = 922337203685477580700 to make earned + 100 wrap
	// (adv10 m1, a false UNSAFE whose input no int64 holds).
	t.emit(&ir.Assume{Cond: ir.And(facts...), Info: t.info(ir.KindFact, "")})
	if i.Op == token.REM {
		return nil, false
	}
	if i.Op == token.QUO && (!r.signed || yc) {
		// Only MinInt / -1 wraps; a constant divisor other than -1
		// cannot make it (and -1 is rare enough to fold below anyway).
		if !yc || i.Y.(*ssa.Const).Int64() != -1 {
			return nil, false
		}
	}
	switch i.Op {
	case token.QUO:
		t.divPanic(i, y)
		minByMinus1 := ir.And(ir.Cmp(ir.OpEq, x, ir.BigInt(r.lo)), ir.Cmp(ir.OpEq, y, ir.IntLit(-1)))
		return ir.IteOf(minByMinus1, ir.BigInt(r.lo), ir.Arith(ir.OpDiv, x, y)), true
	case token.MUL:
		// x*y - k*2^w for the one integer k that brings it into range.
		// (Named after the type: a trace names it where it wraps,
		// report/wrapnote.go.)
		k := t.freshVar("wrap."+i.Type().Underlying().String(), ir.Int, ir.KindModel)
		v := ir.Sub(ir.Arith(ir.OpMul, x, y), ir.Arith(ir.OpMul, k, ir.BigInt(r.mod)))
		t.emit(&ir.Assume{Cond: r.holds(v), Info: t.info(ir.KindFact, "")})
		return v, true
	}
	s := ir.Arith(arithOps[i.Op], x, y)
	m := ir.BigInt(r.mod)
	switch {
	case !r.signed && i.Op == token.ADD:
		return ir.IteOf(ir.Cmp(ir.OpGt, s, ir.BigInt(r.hi)), ir.Sub(s, m), s), true
	case !r.signed:
		return ir.IteOf(ir.Cmp(ir.OpLt, s, ir.IntLit(0)), ir.Add(s, m), s), true
	}
	return ir.IteOf(ir.Cmp(ir.OpGt, s, ir.BigInt(r.hi)), ir.Sub(s, m),
		ir.IteOf(ir.Cmp(ir.OpLt, s, ir.BigInt(r.lo)), ir.Add(s, m), s)), true
}

// wrapNeg returns -x as Go computes it for a signed integer x: -MinInt is
// MinInt.
func (t *translator) wrapNeg(i *ssa.UnOp, x ir.Expr) (ir.Expr, bool) {
	r, ok := rangeOf(i.Type())
	if !ok || !r.signed || t.noOverflow {
		return nil, false
	}
	if _, c := i.X.(*ssa.Const); c {
		return nil, false
	}
	t.emit(&ir.Assume{Cond: r.holds(x), Info: t.info(ir.KindFact, "")})
	return ir.IteOf(ir.Cmp(ir.OpEq, x, ir.BigInt(r.lo)), ir.BigInt(r.lo), ir.Neg(x)), true
}

// noteOverflow states, once per entry, that integer arithmetic is
// mathematical where Config.AssumeNoOverflow asks for it (see
// intwrap.go): a wrap-around is not modelled.
//
// Measured before wrapArith existed, on the 284 sequential corpus cases
// (359 expectations) with + and - of signed integers made exact without
// operand ranges: 13 SAFE → UNSAFE, none real (their inputs lay outside
// the type, amt = 2^63+1): the operand-range facts of wrapArith are what
// makes exactness precise.
func (t *translator) noteOverflow(i *ssa.BinOp) {
	b, ok := i.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || t.overflowNoted ||
		(i.Op != token.ADD && i.Op != token.SUB && i.Op != token.MUL) {
		return
	}
	if _, xc := i.X.(*ssa.Const); xc {
		return
	}
	if _, yc := i.Y.(*ssa.Const); yc && i.Op == token.MUL {
		return
	}
	t.overflowNoted = true
	file, line := t.l.position(i.Pos())
	if line == 0 {
		file, line = t.l.position(t.pos)
	}
	why := "--assume-no-overflow"
	if !t.l.cfg.AssumeNoOverflow {
		why = "the entry has a loop: searched with mathematical integers, and a SAFE stands on them only where the check with wrap-around is undecided"
	}
	t.p.Assume(fmt.Sprintf("Go integer arithmetic does not overflow (%s at %s:%d, and any other; %s)", b.Name(), file, line, why))
}

// noteFloat states, once per entry, that floating-point arithmetic is
// exact: floats are reals, and rounding is not modelled (an independent
// suite's fee check bal < amt*1.15 with debit amt + amt*0.15 is SAFE on
// reals, and 97.22 breaks it by 1.4e-14 in float64).
func (t *translator) noteFloat(i *ssa.BinOp) {
	b, ok := i.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsFloat == 0 || t.floatNoted {
		return
	}
	if _, ok := arithOps[i.Op]; !ok || i.Op == token.REM {
		return
	}
	if _, xc := i.X.(*ssa.Const); xc {
		if _, yc := i.Y.(*ssa.Const); yc {
			return
		}
	}
	t.noteFloatAt(i.Pos(), b.Name())
}

// noteFloatAt states, once per entry, that floating-point arithmetic is
// exact, naming what (an operation's type, a conversion) at pos.
func (t *translator) noteFloatAt(pos token.Pos, what string) {
	if t.floatNoted {
		return
	}
	t.floatNoted = true
	file, line := t.l.position(pos)
	if line == 0 {
		file, line = t.l.position(t.pos)
	}
	t.p.Assume(fmt.Sprintf(exactFloatsNote+" (%s at %s:%d, and any other: rounding is not modelled)", what, file, line))
}
