package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// expr translates a SQL expression evaluated on row symbol x (nil: no row,
// as in INSERT … VALUES) with placeholders bound to args. What the model
// does not capture becomes a fresh variable, havocked before the statement.
// A string is its code (ir.StringCode).
func (m *lowerer) expr(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	return m.value(e, x, args).e
}

// value translates e and says what the model knows of its SQL type.
func (m *lowerer) value(e sqlir.Expr, x *symbol, args []ir.Expr) sqlValue {
	switch e := e.(type) {
	case *sqlir.ColRef:
		if g := m.generated(e, x); g != nil {
			return m.value(g, x, args)
		}
		if v := m.column(e, x); v != nil {
			return sqlValue{e: v, kind: m.symbolKind(x, e.Name), col: !e.NoAffinity, coll: m.symbolCollation(x, e.Name)}
		}
		return sqlValue{e: m.freshVar("$col_"+e.Name, ir.Int)}
	case *sqlir.Param:
		if e.Index < len(args) && args[e.Index] != nil {
			a := args[e.Index]
			if c, ok := a.(*ir.IntConst); ok {
				if text, ok := m.src.Strings[c.V.String()]; ok {
					return sqlValue{e: a, kind: kindText, text: text}
				}
			}
			return sqlValue{e: a}
		}
		return sqlValue{e: m.freshVar("$arg", ir.Int)}
	case *sqlir.Num:
		if e.IsInt {
			return sqlValue{e: ir.BigInt(e.Val.Num()), kind: kindNum}
		}
		return sqlValue{e: ir.RealLit(e.Val), kind: kindNum}
	case *sqlir.Str:
		code := ir.StringCode(e.Val)
		if _, num := ir.CanonicalInt(e.Val); !num {
			m.p.Strings[code.V.String()] = e.Val // (for traces)
		}
		return sqlValue{e: code, kind: kindText, text: e.Val}
	case *sqlir.BoolLit:
		if e.Val {
			return sqlValue{e: ir.IntLit(1), kind: kindNum}
		}
		return sqlValue{e: ir.IntLit(0), kind: kindNum}
	case *sqlir.Null:
		return sqlValue{e: m.freshVar("$null", ir.Int)}
	case *sqlir.Unary:
		v := m.value(e.X, x, args)
		switch e.Op {
		case sqlir.OpNot:
			return sqlValue{e: ir.Not(asBool(v.e)), kind: kindNum}
		case sqlir.OpNeg:
			return m.negate(v)
		case sqlir.UnaryInvalid:
		}
		return sqlValue{e: m.approxVar("$expr", ir.Int, fmt.Sprintf("the SQL operator %s", e.Op))}
	case *sqlir.Binary:
		a, b := m.value(e.X, x, args), m.value(e.Y, x, args)
		switch e.Op {
		case sqlir.OpAnd:
			return sqlValue{e: ir.And(asBool(a.e), asBool(b.e)), kind: kindNum}
		case sqlir.OpOr:
			return sqlValue{e: ir.Or(asBool(a.e), asBool(b.e)), kind: kindNum}
		case sqlir.OpAdd, sqlir.OpSub, sqlir.OpMul, sqlir.OpDiv, sqlir.OpDivInt, sqlir.OpMod:
			return m.arith(e.Op, a, b)
		case sqlir.OpEq, sqlir.OpNe, sqlir.OpLt, sqlir.OpLe, sqlir.OpGt, sqlir.OpGe:
			return sqlValue{e: m.compare(e.Op, a, b), kind: kindNum}
		case sqlir.OpInvalid:
		}
		// No parser builds another operator; were one to appear, its value
		// is arbitrary and marked so (UNKNOWN, never a silent guess).
		return sqlValue{e: m.approxVar("$expr", ir.Int, fmt.Sprintf("the SQL operator %s", e.Op))}
	case *sqlir.IsNull:
		// Constant, a column's NULL-ness ghost, or an approximation
		// (nulls.go).
		null := m.isNull(e.X, x, args)
		if e.Not {
			return sqlValue{e: ir.Not(null), kind: kindNum}
		}
		return sqlValue{e: null, kind: kindNum}
	case *sqlir.Case:
		var out sqlValue
		if e.Else != nil {
			out = m.value(e.Else, x, args)
		} else {
			out = sqlValue{e: m.freshVar("$null", ir.Int)}
		}
		for i := len(e.Whens) - 1; i >= 0; i-- {
			c := asBool(m.expr(e.Whens[i].Cond, x, args))
			v := m.value(e.Whens[i].Val, x, args)
			kind := kindAny
			if v.kind == kindNum && out.kind == kindNum {
				kind = kindNum
			}
			ve, oe := unifyNum(v.e, out.e)
			out = sqlValue{e: ir.IteOf(c, ve, oe), kind: kind}
		}
		return out
	}
	// sqlir.Unknown (a joined table's column, a subquery, a function the
	// model does not evaluate) and anything new: arbitrary, and marked so
	// (nulls.go: unknownValue).
	if sq := m.subquery(e, x, args); sq != nil {
		return sqlValue{e: sq.val}
	}
	return sqlValue{e: m.unknownValue(e)}
}

// column returns the variable of row x that c names: c is unqualified or
// qualified with x's table, and x has the column. nil otherwise.
func (m *lowerer) column(c *sqlir.ColRef, x *symbol) *ir.Var {
	if x == nil || (c.Table != "" && !strings.EqualFold(c.Table, x.table)) {
		return nil
	}
	return x.cols[strings.ToLower(c.Name)]
}

// symbolKind is what the model knows of the type of column col of row x.
func (m *lowerer) symbolKind(x *symbol, col string) valueKind {
	if k, ok := x.kinds[strings.ToLower(col)]; ok {
		return k
	}
	return m.columnKind(x.table, col)
}

// symbolCollation is how column col of row x compares strings.
func (m *lowerer) symbolCollation(x *symbol, col string) collClass {
	if c, ok := x.colls[strings.ToLower(col)]; ok {
		return c
	}
	return m.effectiveCollation(x.table, col)
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
	case *sqlir.Unknown:
		return neverNullCall(e)
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
		switch e.Op {
		case sqlir.OpAnd, sqlir.OpOr, sqlir.OpAdd, sqlir.OpSub, sqlir.OpMul,
			sqlir.OpEq, sqlir.OpNe, sqlir.OpLt, sqlir.OpLe, sqlir.OpGt, sqlir.OpGe:
			return m.neverNull(e.X, x, args) && m.neverNull(e.Y, x, args)
		case sqlir.OpDiv, sqlir.OpDivInt, sqlir.OpMod, sqlir.OpInvalid:
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
		switch c.Op {
		case sqlir.OpOr:
			return m.neverTrue(c.X, x, args) && m.neverTrue(c.Y, x, args)
		case sqlir.OpAnd:
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
	if f, ok := m.fracs[e]; ok {
		// A MySQL DECIMAL stored into an integer column: rounded half away
		// from zero.
		return roundHalfAway(f.num, f.den)
	}
	// Real into Int: the model cannot round; an arbitrary integer.
	return m.freshVar("$rounded", ir.Int)
}
