package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// expr translates a SQL expression evaluated on row symbol x (nil: no row,
// as in INSERT … VALUES) with placeholders bound to args. What the model
// does not capture becomes a fresh variable, havocked before the statement.
func (m *lowerer) expr(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *sqlir.ColRef:
		if g := m.generated(e, x); g != nil {
			return m.expr(g, x, args)
		}
		if v := m.column(e, x); v != nil {
			return v
		}
		return m.freshVar("$col_"+e.Name, ir.Int)
	case *sqlir.Param:
		if e.Index < len(args) && args[e.Index] != nil {
			return args[e.Index]
		}
		return m.freshVar("$arg", ir.Int)
	case *sqlir.Num:
		if e.IsInt {
			return ir.BigInt(e.Val.Num())
		}
		return ir.RealLit(e.Val)
	case *sqlir.Str:
		return ir.StringCode(e.Val)
	case *sqlir.BoolLit:
		if e.Val {
			return ir.IntLit(1)
		}
		return ir.IntLit(0)
	case *sqlir.Null:
		return m.freshVar("$null", ir.Int)
	case *sqlir.Unary:
		x := m.expr(e.X, x, args)
		if strings.EqualFold(e.Op, "NOT") {
			return ir.Not(asBool(x))
		}
		return ir.Neg(asNum(x))
	case *sqlir.Binary:
		a, b := m.expr(e.X, x, args), m.expr(e.Y, x, args)
		switch strings.ToUpper(e.Op) {
		case "AND":
			return ir.And(asBool(a), asBool(b))
		case "OR":
			return ir.Or(asBool(a), asBool(b))
		case "+":
			return ir.Arith(ir.OpAdd, asNum(a), asNum(b))
		case "-":
			return ir.Arith(ir.OpSub, asNum(a), asNum(b))
		case "*":
			return ir.Arith(ir.OpMul, asNum(a), asNum(b))
		case "/", "DIV":
			return ir.Arith(ir.OpDiv, asNum(a), asNum(b))
		case "%", "MOD":
			return ir.Arith(ir.OpMod, asNum(a), asNum(b))
		case "=":
			return cmp(ir.OpEq, a, b)
		case "<>", "!=":
			return cmp(ir.OpNe, a, b)
		case "<":
			return cmp(ir.OpLt, a, b)
		case "<=":
			return cmp(ir.OpLe, a, b)
		case ">":
			return cmp(ir.OpGt, a, b)
		case ">=":
			return cmp(ir.OpGe, a, b)
		}
		return m.freshVar("$expr", ir.Int)
	case *sqlir.IsNull:
		switch {
		case m.neverNull(e.X, x, args):
			return ir.BoolConst(e.Not)
		case isNullLit(e.X):
			return ir.BoolConst(!e.Not)
		}
		// A value that may be NULL: the model does not track NULLs, so
		// whether it is one is arbitrary.
		return m.freshVar("$isnull", ir.Bool)
	case *sqlir.Case:
		var out ir.Expr
		if e.Else != nil {
			out = m.expr(e.Else, x, args)
		} else {
			out = m.freshVar("$null", ir.Int)
		}
		for i := len(e.Whens) - 1; i >= 0; i-- {
			c := asBool(m.expr(e.Whens[i].Cond, x, args))
			v := m.expr(e.Whens[i].Val, x, args)
			v, out = unifyNum(v, out)
			out = ir.IteOf(c, v, out)
		}
		return out
	}
	// sqlir.Unknown and anything new: arbitrary.
	return m.freshVar("$unknown", ir.Int)
}

// column returns the variable of row x that c names: c is unqualified or
// qualified with x's table, and x has the column. nil otherwise.
func (m *lowerer) column(c *sqlir.ColRef, x *symbol) *ir.Var {
	if x == nil || (c.Table != "" && !strings.EqualFold(c.Table, x.table)) {
		return nil
	}
	return x.cols[strings.ToLower(c.Name)]
}

// neverNull reports whether e, evaluated on row x with placeholders bound
// to args, cannot be NULL: it is built from literals, columns of x declared
// NOT NULL (or known non-NULL for x), placeholders bound to Go values (a
// Go int, string, float, bool or decimal is never NULL; pointers, sql.Null*
// and interfaces are not bound), and operators that give NULL only on a
// NULL operand. Division and modulo may give NULL (MySQL: by zero).
func (m *lowerer) neverNull(e sqlir.Expr, x *symbol, args []ir.Expr) bool {
	switch e := e.(type) {
	case *sqlir.Num, *sqlir.Str, *sqlir.BoolLit, *sqlir.IsNull:
		return true
	case *sqlir.ColRef:
		if g := m.generated(e, x); g != nil {
			return m.neverNull(g, x, args)
		}
		if m.column(e, x) == nil {
			return false
		}
		name := strings.ToLower(e.Name)
		return x.nonNull[name] || m.notNullColumn(x.table, name)
	case *sqlir.Param:
		return e.Index < len(args) && args[e.Index] != nil
	case *sqlir.Unary:
		return m.neverNull(e.X, x, args)
	case *sqlir.Binary:
		switch strings.ToUpper(e.Op) {
		case "AND", "OR", "+", "-", "*", "=", "<>", "!=", "<", "<=", ">", ">=":
			return m.neverNull(e.X, x, args) && m.neverNull(e.Y, x, args)
		}
		return false
	case *sqlir.Case:
		for _, w := range e.Whens {
			if !m.neverTrue(w.Cond, x, args) && !m.neverNull(w.Val, x, args) {
				return false
			}
		}
		return e.Else != nil && m.neverNull(e.Else, x, args)
	}
	return false
}

// neverTrue reports whether condition c is never TRUE on row x: FALSE, a
// never-NULL value tested IS NULL, or a combination of those (the dead
// arms of the CASEs that COALESCE, GREATEST and LEAST are rewritten into).
func (m *lowerer) neverTrue(c sqlir.Expr, x *symbol, args []ir.Expr) bool {
	switch c := c.(type) {
	case *sqlir.BoolLit:
		return !c.Val
	case *sqlir.IsNull:
		return !c.Not && m.neverNull(c.X, x, args)
	case *sqlir.Binary:
		switch strings.ToUpper(c.Op) {
		case "OR":
			return m.neverTrue(c.X, x, args) && m.neverTrue(c.Y, x, args)
		case "AND":
			return m.neverTrue(c.X, x, args) || m.neverTrue(c.Y, x, args)
		}
	}
	return false
}

func isNullLit(e sqlir.Expr) bool {
	_, ok := e.(*sqlir.Null)
	return ok
}

// asBool turns a SQL value into a truth value (non-zero is true).
func asBool(e ir.Expr) ir.Expr {
	if e.Sort() == ir.Bool {
		return e
	}
	return ir.Cmp(ir.OpNe, e, ir.Zero(e.Sort()))
}

// asNum turns a truth value into 1 or 0.
func asNum(e ir.Expr) ir.Expr {
	if e.Sort() != ir.Bool {
		return e
	}
	return ir.IteOf(e, ir.IntLit(1), ir.IntLit(0))
}

func cmp(op ir.Op, a, b ir.Expr) ir.Expr {
	if a.Sort() == ir.Bool && b.Sort() == ir.Bool && (op == ir.OpEq || op == ir.OpNe) {
		return ir.Cmp(op, a, b)
	}
	return ir.Cmp(op, asNum(a), asNum(b))
}

func unifyNum(a, b ir.Expr) (ir.Expr, ir.Expr) {
	if a.Sort() == b.Sort() {
		return a, b
	}
	a, b = asNum(a), asNum(b)
	if a.Sort() == ir.Real || b.Sort() == ir.Real {
		return ir.AsReal(a), ir.AsReal(b)
	}
	return a, b
}

// convert makes e fit a variable of sort s.
func (m *lowerer) convert(e ir.Expr, s ir.Sort) ir.Expr {
	switch {
	case e.Sort() == s:
		return e
	case s == ir.Bool:
		return asBool(e)
	case s == ir.Real:
		return ir.AsReal(asNum(e))
	case e.Sort() == ir.Bool:
		return asNum(e)
	}
	// Real into Int: the model cannot round; an arbitrary integer.
	return m.freshVar("$rounded", ir.Int)
}
