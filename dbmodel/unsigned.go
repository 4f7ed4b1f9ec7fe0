package dbmodel

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Unsigned arithmetic on MySQL (checked on MariaDB 10.11: groundtruth
// TestMySQLUnsignedArgument): a placeholder bound to a Go unsigned integer
// is sent as BIGINT UNSIGNED (sqlir.Param.Unsigned, set by the front end
// only where go-sql-driver's binary protocol binds it). When both
// operands of + - * are integers and one is unsigned, MySQL computes the
// result as BIGINT UNSIGNED and fails the statement (Error 1690, "BIGINT
// UNSIGNED value is out of range") where it is negative or above
// 2^64-1, e.g. `balance - ?` with balance 0 and 1. The failure is modelled
// where it is certain: the SET expressions of an UPDATE (and of an
// upsert's conflict assignments) on a row the statement changes, built
// of integer literals, integer columns the schema declares, unsigned
// placeholders and + - * of them, none of them NULL. Elsewhere (a WHERE,
// a DECIMAL or undeclared column, a signed placeholder whose Go type the
// model does not carry) the arithmetic stays signed and exact.

// unsignedMax is 2^64-1.
var unsignedMax = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))

// unsignedInRange returns the condition under which evaluating e on row x
// (placeholders bound to args) raises no unsigned out-of-range error:
// True outside MySQL and where e does no unsigned arithmetic.
func (m *lowerer) unsignedInRange(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	if m.opt.Dialect != "mysql" {
		return ir.True
	}
	b, ok := e.(*sqlir.Binary)
	if !ok || !(b.Op == sqlir.OpAdd || b.Op == sqlir.OpSub || b.Op == sqlir.OpMul) {
		return ir.True
	}
	conds := []ir.Expr{m.unsignedInRange(b.X, x, args), m.unsignedInRange(b.Y, x, args)}
	if m.unsignedInt(b, x) && m.neverNull(b, x, args) {
		v := m.expr(b, x, args)
		if v.Sort() == ir.Int {
			conds = append(conds, ir.Cmp(ir.OpGe, v, ir.IntLit(0)), ir.Cmp(ir.OpLe, v, ir.BigInt(unsignedMax)))
		}
	}
	return ir.And(conds...)
}

// unsignedInt reports whether MySQL computes e as BIGINT UNSIGNED: an
// unsigned placeholder, or + - * of two integers one of which is.
func (m *lowerer) unsignedInt(e sqlir.Expr, x *symbol) bool {
	switch e := e.(type) {
	case *sqlir.Param:
		return e.Unsigned
	case *sqlir.Binary:
		if e.Op != sqlir.OpAdd && e.Op != sqlir.OpSub && e.Op != sqlir.OpMul {
			return false
		}
		return m.integer(e.X, x) && m.integer(e.Y, x) && (m.unsignedInt(e.X, x) || m.unsignedInt(e.Y, x))
	}
	return false
}

// integer reports whether MySQL surely computes e as an integer: an
// integer literal, a column of x the schema declares an integer, an
// unsigned placeholder, or + - * of integers.
func (m *lowerer) integer(e sqlir.Expr, x *symbol) bool {
	switch e := e.(type) {
	case *sqlir.Num:
		return e.IsInt
	case *sqlir.Param:
		return e.Unsigned
	case *sqlir.ColRef:
		if x == nil || m.column(e, x) == nil || m.generated(e, x) != nil {
			return false
		}
		t := m.schemaTable(x.table)
		if t == nil {
			return false
		}
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, e.Name) {
				_, _, isInt := intType(strings.ToLower(c.Type))
				return isInt
			}
		}
		return false
	case *sqlir.Binary:
		if e.Op != sqlir.OpAdd && e.Op != sqlir.OpSub && e.Op != sqlir.OpMul {
			return false
		}
		return m.integer(e.X, x) && m.integer(e.Y, x)
	}
	return false
}
