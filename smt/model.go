package smt

import (
	"fmt"
	"math/big"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// Model maps variables to values. It is a plain Go value, extracted from Z3
// when it is made: it stays valid whatever the Solver does afterwards.
type Model struct {
	vals   map[varKey]ir.Value
	approx bool
}

// Value returns v's value; variables the formula did not constrain get the
// zero of their sort (model completion), so ok is false only for a nil Model.
// Variables are identified by name and sort. The returned Value is a copy.
func (m *Model) Value(v *ir.Var) (ir.Value, bool) {
	if m == nil || v == nil {
		return ir.Value{}, false
	}
	if x, ok := m.vals[keyOf(v)]; ok {
		if x.R != nil {
			x.R = new(big.Rat).Set(x.R)
		}
		return x, true
	}
	if v.Type == ir.Bool {
		return ir.BoolValue(false), true
	}
	return ir.NumValue(v.Type, new(big.Rat)), true
}

// Approximate reports whether some Real value of m is a rational
// approximation (within 10^-20, from below) of an irrational algebraic
// number, as nonlinear real constraints may produce. Such a model may not
// satisfy the formula exactly when re-evaluated with ir.Eval.
func (m *Model) Approximate() bool { return m != nil && m.approx }

// Len returns the number of variables with a value extracted from Z3.
func (m *Model) Len() int {
	if m == nil {
		return 0
	}
	return len(m.vals)
}

// approxDigits is the precision of the rational approximation of an
// irrational real value.
const approxDigits = 20

// value converts the Z3 value of constant k in model zm.
func (s *Solver) value(zm *z3.Model, k varKey) (v ir.Value, approx bool, err error) {
	c, ok := s.consts[k]
	if !ok {
		return v, false, fmt.Errorf("no Z3 constant for %s", k.name)
	}
	x := zm.Eval(c, true)
	if x == nil {
		return v, false, fmt.Errorf("Z3 cannot evaluate %s", k.name)
	}
	switch k.sort {
	case ir.Bool:
		b, lit := x.(z3.Bool).AsBool()
		if !lit {
			return v, false, fmt.Errorf("value of %s is not a literal: %s", k.name, x)
		}
		return ir.BoolValue(b), false, nil
	case ir.Int:
		n, lit := x.(z3.Int).AsBigInt()
		if !lit {
			return v, false, fmt.Errorf("value of %s is not a literal: %s", k.name, x)
		}
		return ir.NumValue(ir.Int, new(big.Rat).SetInt(n)), false, nil
	}
	r := x.(z3.Real)
	if q, lit := r.AsBigRat(); lit {
		return ir.NumValue(ir.Real, q), false, nil
	}
	lo, _, irrational := r.Approx(approxDigits)
	if irrational {
		if q, lit := lo.AsBigRat(); lit {
			return ir.NumValue(ir.Real, q), true, nil
		}
	}
	return v, false, fmt.Errorf("value of %s is not a number: %s", k.name, x)
}
