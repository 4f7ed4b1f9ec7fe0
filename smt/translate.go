package smt

import (
	"fmt"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// varKey identifies a Z3 constant: an ir.Var's name and sort. Two *ir.Var
// with the same name and sort denote the same constant.
type varKey struct {
	name string
	sort ir.Sort
}

func keyOf(v *ir.Var) varKey { return varKey{v.Name, v.Type} }

// term is a translated expression with its ir sort.
type term struct {
	v    z3.Value
	sort ir.Sort
}

// translator turns one ir expression into a Z3 term. It memoises by node
// identity, so expressions with shared subterms (as substitution produces)
// are translated in time linear in their DAG size.
type translator struct {
	s    *Solver
	memo map[ir.Expr]term
	vars []varKey // the variables met, each once
	seen map[varKey]bool
}

func (s *Solver) newTranslator() *translator {
	return &translator{s: s, memo: make(map[ir.Expr]term), seen: make(map[varKey]bool)}
}

// formula translates a Bool expression.
func (t *translator) formula(e ir.Expr) (z3.Bool, error) {
	r, err := t.expr(e)
	if err != nil {
		return z3.Bool{}, err
	}
	if r.sort != ir.Bool {
		return z3.Bool{}, fmt.Errorf("%w: formula has sort %s, want bool", ErrSort, r.sort)
	}
	return r.v.(z3.Bool), nil
}

func (t *translator) expr(e ir.Expr) (term, error) {
	if e == nil {
		return term{}, fmt.Errorf("%w: nil expression", ErrSort)
	}
	if r, ok := t.memo[e]; ok {
		return r, nil
	}
	r, err := t.node(e)
	if err != nil {
		return term{}, err
	}
	t.memo[e] = r
	return r, nil
}

func (t *translator) node(e ir.Expr) (term, error) {
	s := t.s
	switch e := e.(type) {
	case *ir.Var:
		if e == nil {
			return term{}, fmt.Errorf("%w: nil variable", ErrSort)
		}
		c, err := s.constant(keyOf(e))
		if err != nil {
			return term{}, err
		}
		if k := keyOf(e); !t.seen[k] {
			t.seen[k] = true
			t.vars = append(t.vars, k)
		}
		return term{c, e.Type}, nil
	case *ir.IntConst:
		if e == nil || e.V == nil {
			return term{}, fmt.Errorf("%w: nil integer constant", ErrSort)
		}
		return term{s.ctx.FromBigInt(e.V, s.intSort), ir.Int}, nil
	case *ir.RealConst:
		if e == nil || e.V == nil {
			return term{}, fmt.Errorf("%w: nil real constant", ErrSort)
		}
		return term{s.ctx.FromBigRat(e.V), ir.Real}, nil
	case ir.BoolConst:
		return term{s.ctx.FromBool(bool(e)), ir.Bool}, nil
	case *ir.ToReal:
		if e == nil {
			return term{}, fmt.Errorf("%w: nil conversion", ErrSort)
		}
		x, err := t.expr(e.X)
		if err != nil {
			return term{}, err
		}
		if x.sort == ir.Bool {
			return term{}, fmt.Errorf("%w: real() of a bool", ErrSort)
		}
		return t.toReal(x), nil
	case *ir.Unary:
		if e == nil {
			return term{}, fmt.Errorf("%w: nil unary expression", ErrSort)
		}
		return t.unary(e)
	case *ir.Binary:
		if e == nil {
			return term{}, fmt.Errorf("%w: nil binary expression", ErrSort)
		}
		return t.binary(e)
	case *ir.Ite:
		if e == nil {
			return term{}, fmt.Errorf("%w: nil ite", ErrSort)
		}
		return t.ite(e)
	}
	return term{}, fmt.Errorf("%w: unknown expression type %T", ErrSort, e)
}

func (t *translator) toReal(x term) term {
	if x.sort == ir.Int {
		return term{x.v.(z3.Int).ToReal(), ir.Real}
	}
	return x
}

func numeric(s ir.Sort) bool { return s == ir.Int || s == ir.Real }

// unify converts an Int operand to Real when the other one is Real.
func (t *translator) unify(x, y term) (term, term) {
	if x.sort == ir.Real || y.sort == ir.Real {
		return t.toReal(x), t.toReal(y)
	}
	return x, y
}

func (t *translator) unary(e *ir.Unary) (term, error) {
	x, err := t.expr(e.X)
	if err != nil {
		return term{}, err
	}
	switch e.Op {
	case ir.OpNot:
		if x.sort != ir.Bool {
			return term{}, fmt.Errorf("%w: ! applied to %s", ErrSort, x.sort)
		}
		return term{x.v.(z3.Bool).Not(), ir.Bool}, nil
	case ir.OpNeg:
		switch x.sort {
		case ir.Int:
			return term{x.v.(z3.Int).Neg(), ir.Int}, nil
		case ir.Real:
			return term{x.v.(z3.Real).Neg(), ir.Real}, nil
		}
		return term{}, fmt.Errorf("%w: unary - applied to %s", ErrSort, x.sort)
	}
	return term{}, fmt.Errorf("%w: unary operator %d", ErrSort, e.Op)
}

func (t *translator) binary(e *ir.Binary) (term, error) {
	x, err := t.expr(e.X)
	if err != nil {
		return term{}, err
	}
	y, err := t.expr(e.Y)
	if err != nil {
		return term{}, err
	}
	switch e.Op {
	case ir.OpAnd, ir.OpOr, ir.OpImplies:
		if x.sort != ir.Bool || y.sort != ir.Bool {
			return term{}, fmt.Errorf("%w: %s applied to %s and %s", ErrSort, e.Op, x.sort, y.sort)
		}
		a, b := x.v.(z3.Bool), y.v.(z3.Bool)
		switch e.Op {
		case ir.OpAnd:
			return term{a.And(b), ir.Bool}, nil
		case ir.OpOr:
			return term{a.Or(b), ir.Bool}, nil
		}
		return term{a.Implies(b), ir.Bool}, nil
	case ir.OpEq, ir.OpNe:
		if x.sort == ir.Bool || y.sort == ir.Bool {
			if x.sort != y.sort {
				return term{}, fmt.Errorf("%w: %s applied to %s and %s", ErrSort, e.Op, x.sort, y.sort)
			}
			a, b := x.v.(z3.Bool), y.v.(z3.Bool)
			if e.Op == ir.OpEq {
				return term{a.Eq(b), ir.Bool}, nil
			}
			return term{a.Xor(b), ir.Bool}, nil
		}
	}
	if !numeric(x.sort) || !numeric(y.sort) {
		return term{}, fmt.Errorf("%w: %s applied to %s and %s", ErrSort, e.Op, x.sort, y.sort)
	}
	x, y = t.unify(x, y)
	if x.sort == ir.Int {
		return t.intOp(e, x.v.(z3.Int), y.v.(z3.Int))
	}
	return t.realOp(e.Op, x.v.(z3.Real), y.v.(z3.Real))
}

func (t *translator) intOp(e *ir.Binary, a, b z3.Int) (term, error) {
	switch e.Op {
	case ir.OpAdd:
		return term{a.Add(b), ir.Int}, nil
	case ir.OpSub:
		return term{a.Sub(b), ir.Int}, nil
	case ir.OpMul:
		return term{a.Mul(b), ir.Int}, nil
	case ir.OpDiv:
		return term{t.goQuo(a, b), ir.Int}, nil
	case ir.OpMod:
		return term{t.goRem(a, b, nonZeroConst(e.Y)), ir.Int}, nil
	case ir.OpEq:
		return term{a.Eq(b), ir.Bool}, nil
	case ir.OpNe:
		return term{a.NE(b), ir.Bool}, nil
	case ir.OpLt:
		return term{a.LT(b), ir.Bool}, nil
	case ir.OpLe:
		return term{a.LE(b), ir.Bool}, nil
	case ir.OpGt:
		return term{a.GT(b), ir.Bool}, nil
	case ir.OpGe:
		return term{a.GE(b), ir.Bool}, nil
	}
	return term{}, fmt.Errorf("%w: %s applied to int operands", ErrSort, e.Op)
}

func (t *translator) realOp(op ir.Op, a, b z3.Real) (term, error) {
	switch op {
	case ir.OpAdd:
		return term{a.Add(b), ir.Real}, nil
	case ir.OpSub:
		return term{a.Sub(b), ir.Real}, nil
	case ir.OpMul:
		return term{a.Mul(b), ir.Real}, nil
	case ir.OpDiv:
		return term{a.Div(b), ir.Real}, nil
	case ir.OpEq:
		return term{a.Eq(b), ir.Bool}, nil
	case ir.OpNe:
		return term{a.NE(b), ir.Bool}, nil
	case ir.OpLt:
		return term{a.LT(b), ir.Bool}, nil
	case ir.OpLe:
		return term{a.LE(b), ir.Bool}, nil
	case ir.OpGt:
		return term{a.GT(b), ir.Bool}, nil
	case ir.OpGe:
		return term{a.GE(b), ir.Bool}, nil
	}
	return term{}, fmt.Errorf("%w: %s applied to real operands", ErrSort, op)
}

// goQuo is Go's integer quotient, truncated toward zero. Z3's div is
// Euclidean (remainder always non-negative), which agrees with truncation
// whenever the dividend is non-negative, whatever the divisor's sign; for a
// negative dividend, trunc(x/y) = -trunc(-x/y). So
//
//	x / y = ite(x >= 0, div(x, y), -div(-x, y)).
//
// For y = 0 both branches are Z3's unconstrained division by zero.
func (t *translator) goQuo(x, y z3.Int) z3.Int {
	zero := t.s.ctx.FromInt(0, t.s.intSort).(z3.Int)
	return x.GE(zero).IfThenElse(x.Div(y), x.Neg().Div(y).Neg()).(z3.Int)
}

// goRem is Go's remainder x - y*(x/y), which has the sign of the dividend.
// Unless y is a non-zero constant, a zero divisor is routed to Z3's own
// (unconstrained) remainder instead of the formula's x - 0*q = x.
func (t *translator) goRem(x, y z3.Int, yNonZero bool) z3.Int {
	r := x.Sub(y.Mul(t.goQuo(x, y)))
	if yNonZero {
		return r
	}
	zero := t.s.ctx.FromInt(0, t.s.intSort).(z3.Int)
	return y.Eq(zero).IfThenElse(x.Rem(y), r).(z3.Int)
}

// nonZeroConst reports whether e is an integer literal other than 0.
func nonZeroConst(e ir.Expr) bool {
	c, ok := e.(*ir.IntConst)
	return ok && c != nil && c.V != nil && c.V.Sign() != 0
}

func (t *translator) ite(e *ir.Ite) (term, error) {
	c, err := t.expr(e.Cond)
	if err != nil {
		return term{}, err
	}
	if c.sort != ir.Bool {
		return term{}, fmt.Errorf("%w: ite condition has sort %s", ErrSort, c.sort)
	}
	x, err := t.expr(e.Then)
	if err != nil {
		return term{}, err
	}
	y, err := t.expr(e.Else)
	if err != nil {
		return term{}, err
	}
	if x.sort != y.sort {
		if !numeric(x.sort) || !numeric(y.sort) {
			return term{}, fmt.Errorf("%w: ite branches have sorts %s and %s", ErrSort, x.sort, y.sort)
		}
		x, y = t.unify(x, y)
	}
	return term{c.v.(z3.Bool).IfThenElse(x.v, y.v), x.sort}, nil
}
