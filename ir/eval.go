package ir

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
)

// ErrDivisionByZero is Eval's error for a division (or remainder) by zero,
// which the SMT encoding leaves unconstrained.
var ErrDivisionByZero = errors.New("division by zero")

// Value is the value of an expression in a model: a boolean or a number.
type Value struct {
	Sort Sort
	B    bool
	R    *big.Rat // Int and Real
}

// BoolValue returns the boolean value b.
func BoolValue(b bool) Value { return Value{Sort: Bool, B: b} }

// NumValue returns a number of sort s.
func NumValue(s Sort, r *big.Rat) Value { return Value{Sort: s, R: r} }

func (v Value) String() string {
	switch v.Sort {
	case Bool:
		if v.B {
			return "true"
		}
		return "false"
	case Int:
		if v.R == nil {
			return "0"
		}
		return v.R.Num().String()
	}
	if v.R == nil {
		return "0"
	}
	if v.R.IsInt() {
		return v.R.Num().String()
	}
	return ratString(v.R)
}

// ratString prints a fraction as a decimal a program can be run with: its
// exact expansion when it ends (19/2 is 9.5, 1/8 is 0.125), else the
// shortest decimal that reads back as the float64 nearest to it (20/3 is
// 6.666666666666667: six digits would be 6.666667, far enough from 20/3
// to turn a comparison of a replayed run).
func ratString(r *big.Rat) string {
	d := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n := 0
		m, q := new(big.Int), big.NewInt(p)
		for {
			quo, rem := new(big.Int).QuoRem(d, q, m)
			if rem.Sign() != 0 {
				break
			}
			d, n = quo, n+1
		}
		digits = max(digits, n)
	}
	if d.Cmp(big.NewInt(1)) == 0 {
		return r.FloatString(digits)
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Eval evaluates e with the variables' values taken from env. A variable
// missing from env is an error: a model must give every variable of the
// formula it satisfies.
func Eval(e Expr, env func(*Var) (Value, bool)) (Value, error) {
	switch e := e.(type) {
	case *Var:
		v, ok := env(e)
		if !ok {
			return Value{}, fmt.Errorf("no value for %s", e.Name)
		}
		return v, nil
	case *IntConst:
		return NumValue(Int, new(big.Rat).SetInt(e.V)), nil
	case *RealConst:
		return NumValue(Real, e.V), nil
	case BoolConst:
		return BoolValue(bool(e)), nil
	case *ToReal:
		x, err := Eval(e.X, env)
		if err != nil {
			return x, err
		}
		return NumValue(Real, x.R), nil
	case *Ite:
		c, err := Eval(e.Cond, env)
		if err != nil {
			return c, err
		}
		if c.B {
			return Eval(e.Then, env)
		}
		return Eval(e.Else, env)
	case *Unary:
		x, err := Eval(e.X, env)
		if err != nil {
			return x, err
		}
		if e.Op == OpNot {
			return BoolValue(!x.B), nil
		}
		return NumValue(x.Sort, new(big.Rat).Neg(x.R)), nil
	case *Binary:
		x, err := Eval(e.X, env)
		if err != nil {
			return x, err
		}
		switch e.Op {
		case OpAnd:
			if !x.B {
				return x, nil
			}
			return Eval(e.Y, env)
		case OpOr:
			if x.B {
				return x, nil
			}
			return Eval(e.Y, env)
		case OpImplies:
			if !x.B {
				return BoolValue(true), nil
			}
			return Eval(e.Y, env)
		}
		y, err := Eval(e.Y, env)
		if err != nil {
			return y, err
		}
		return evalBinary(e.Op, x, y)
	}
	return Value{}, fmt.Errorf("cannot evaluate %T", e)
}

func evalBinary(op Op, x, y Value) (Value, error) {
	if x.Sort == Bool {
		switch op {
		case OpEq:
			return BoolValue(x.B == y.B), nil
		case OpNe:
			return BoolValue(x.B != y.B), nil
		}
		return Value{}, fmt.Errorf("operator %s on booleans", op)
	}
	if op.IsComparison() {
		c := x.R.Cmp(y.R)
		r := map[Op]bool{OpEq: c == 0, OpNe: c != 0, OpLt: c < 0, OpLe: c <= 0, OpGt: c > 0, OpGe: c >= 0}[op]
		return BoolValue(r), nil
	}
	z := new(big.Rat)
	switch op {
	case OpAdd:
		z.Add(x.R, y.R)
	case OpSub:
		z.Sub(x.R, y.R)
	case OpMul:
		z.Mul(x.R, y.R)
	case OpDiv, OpMod:
		if y.R.Sign() == 0 {
			return Value{}, ErrDivisionByZero
		}
		if x.Sort == Real && op == OpDiv {
			z.Quo(x.R, y.R)
			break
		}
		a, b := x.R.Num(), y.R.Num()
		if op == OpDiv {
			z.SetInt(new(big.Int).Quo(a, b))
		} else {
			z.SetInt(new(big.Int).Rem(a, b))
		}
	default:
		return Value{}, fmt.Errorf("unknown operator %s", op)
	}
	return NumValue(x.Sort, z), nil
}
