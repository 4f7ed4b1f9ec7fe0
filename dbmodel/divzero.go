package dbmodel

import (
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Division by zero in SQL (checked on the engines): PostgreSQL raises
// 22012 and the statement fails; MySQL, MariaDB and SQLite give NULL (in
// MySQL's strict mode with ERROR_FOR_DIVISION_BY_ZERO an INSERT or UPDATE
// fails instead). The value of x / 0 is left unconstrained in the
// encoding; what is modelled:
//   - PostgreSQL: a SELECT that succeeded divided by no zero in its items,
//     nor in its WHERE on the row it read (divByZero);
//   - MySQL and SQLite: x / 0 IS NULL (isNull), so a Scan of it into a Go
//     int64 fails (scannedNotNull).
// Elsewhere a counterexample whose run divides by zero is not reported as
// UNSAFE (vcgen.DivisionByZero: UNKNOWN naming the division).

// divByZero returns the condition under which evaluating e on row x
// (placeholders bound to args) surely divides by zero: a division whose
// divisor is zero, counted in a CASE arm only where the arm is taken and
// in the right operand of AND / OR only where the left one does not
// decide (PostgreSQL may skip what is not needed). False when e divides
// by no expression that may be zero.
func (m *lowerer) divByZero(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *sqlir.Unary:
		return m.divByZero(e.X, x, args)
	case *sqlir.IsNull:
		return m.divByZero(e.X, x, args)
	case *sqlir.Binary:
		left, right := m.divByZero(e.X, x, args), m.divByZero(e.Y, x, args)
		switch e.Op {
		case sqlir.OpAnd:
			right = ir.And(asBool(m.expr(e.X, x, args)), right)
		case sqlir.OpOr:
			right = ir.And(ir.Not(asBool(m.expr(e.X, x, args))), right)
		case sqlir.OpDiv, sqlir.OpDivInt, sqlir.OpMod:
			if z := m.zeroDivisor(e.Y, x, args); z != ir.False {
				right = ir.Or(right, z)
			}
		}
		return ir.Or(left, right)
	case *sqlir.Case:
		var out []ir.Expr
		before := ir.Expr(ir.True) // no earlier arm taken
		for _, w := range e.Whens {
			c := asBool(m.expr(w.Cond, x, args))
			out = append(out, ir.And(before, m.divByZero(w.Cond, x, args)), ir.And(before, c, m.divByZero(w.Val, x, args)))
			before = ir.And(before, ir.Not(c))
		}
		if e.Else != nil {
			out = append(out, ir.And(before, m.divByZero(e.Else, x, args)))
		}
		return ir.Or(out...)
	}
	return ir.False
}

// zeroDivisor returns the condition that divisor e is zero on row x.
func (m *lowerer) zeroDivisor(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	if n, ok := e.(*sqlir.Num); ok && n.Val.Sign() != 0 {
		return ir.False
	}
	d := m.expr(e, x, args)
	if d.Sort() == ir.Real {
		return ir.Eq(d, ir.AsReal(ir.IntLit(0)))
	}
	return ir.Eq(d, ir.IntLit(0))
}

// noDivByZero returns the fact that the SELECT s, which read row x and
// succeeded, divided by no zero in its items and its WHERE on x: on
// PostgreSQL (True elsewhere, and where the condition reads a value the
// model approximates).
func (m *lowerer) noDivByZero(s *ir.Select, items []sqlir.SelectItem, x *symbol) ir.Expr {
	if m.opt.Dialect != "postgres" {
		return ir.True
	}
	var out []ir.Expr
	for _, it := range items {
		if it.Star || it.Expr == nil {
			continue
		}
		out = append(out, m.exactly(func() ir.Expr { return ir.Not(m.divByZero(it.Expr, x, s.Args)) }))
	}
	if s.SQL.Where != nil {
		out = append(out, m.exactly(func() ir.Expr { return ir.Not(m.divByZero(s.SQL.Where, x, s.Args)) }))
	}
	return ir.And(out...)
}

// exactly returns f's result, or True when f made the model approximate
// (a new variable marked Approx, dropped): a fact assumed from it would
// make every counterexample through it read the approximation.
func (m *lowerer) exactly(f func() ir.Expr) ir.Expr {
	n := len(m.fresh)
	e := f()
	if len(m.fresh) < n {
		return e
	}
	for _, v := range m.fresh[n:] {
		if v.Approx != "" {
			m.fresh = m.fresh[:n]
			return ir.True
		}
	}
	return e
}
