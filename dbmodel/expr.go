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
		if x != nil && (e.Table == "" || m.onTable(e.Table)) {
			if v, ok := x.cols[strings.ToLower(e.Name)]; ok {
				return v
			}
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
		// Values are never NULL in the model unless unknown: an arbitrary truth value.
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
