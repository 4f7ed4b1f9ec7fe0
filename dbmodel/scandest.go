package dbmodel

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Go-side conversions (see frontend scandest.go): a Scan into a Go bool
// succeeds only on the integers 0 and 1, into a Go integer type only on
// a value in its range; a Go unsigned argument at 2^63 or above fails
// the call where the driver uses database/sql's default converter. Each
// is assumed on the success path of the call, whose error path is the
// one every call has.

// maxInt64 is 2^63-1.
var maxInt64 = big.NewInt(1<<63 - 1)

// columnsInRange returns that the integer columns of row x the schema
// declares hold values in their type's range (intrange.go): no row of
// the engine holds another.
func (m *lowerer) columnsInRange(x *symbol) ir.Expr {
	t := m.schemaTable(x.table)
	if t == nil || x.table == "" {
		return ir.True
	}
	var out []ir.Expr
	for _, c := range t.Columns {
		v := x.cols[strings.ToLower(c.Name)]
		if v == nil || v.Type != ir.Int {
			continue
		}
		if _, _, isInt := intType(strings.ToLower(c.Type)); isInt {
			out = append(out, m.inColumnRange(x.table, strings.ToLower(c.Name), v))
		}
	}
	return ir.And(out...)
}

// argsAccepted returns that the arguments of statement s that its driver
// refuses at 2^63 and above (ir.Exec.Refuses64, ir.Select.Refuses64) are
// below 2^63.
func argsAccepted(s ir.Stmt) ir.Expr {
	var args []ir.Expr
	var idx []int
	switch s := s.(type) {
	case *ir.Exec:
		args, idx = s.Args, s.Refuses64
	case *ir.Select:
		args, idx = s.Args, s.Refuses64
	}
	var out []ir.Expr
	for _, i := range idx {
		if i < len(args) && args[i] != nil && args[i].Sort() == ir.Int {
			out = append(out, ir.Cmp(ir.OpLt, args[i], ir.BigInt(new(big.Int).Lsh(big.NewInt(1), 63))))
		}
	}
	return ir.And(out...)
}

// scannedInDomain returns that the items of s read into destinations
// whose conversion the Scan checks (ir.Select.ScanInto) hold values the
// destination accepts: 0 or 1 for a bool, its range for an integer type.
// Only integer items evaluated exactly are constrained (integerItem): a
// text column scanned into a bool ("true") is not an integer.
func (m *lowerer) scannedInDomain(s *ir.Select, items []sqlir.SelectItem, x *symbol) ir.Expr {
	var out []ir.Expr
	for i, d := range s.ScanInto {
		if d == nil || i >= len(items) || items[i].Star || items[i].Expr == nil || !m.integerItem(items[i].Expr, x) {
			continue
		}
		n := len(m.fresh)
		v := m.expr(items[i].Expr, x, s.Args)
		if len(m.fresh) > n {
			// An approximated value: no fact about it.
			m.fresh = m.fresh[:n]
			continue
		}
		if v == nil || v.Sort() != ir.Int {
			continue
		}
		if d.Bool {
			out = append(out, ir.Or(ir.Eq(v, ir.IntLit(0)), ir.Eq(v, ir.IntLit(1))))
			continue
		}
		hi := d.Hi
		if m.opt.Dialect != "mysql" && hi.Cmp(maxInt64) > 0 {
			// Only MySQL's BIGINT UNSIGNED holds an integer above
			// 2^63-1; SQLite stores a larger one as a REAL, whose text
			// ("1.8e+19") no integer destination parses.
			hi = maxInt64
		}
		out = append(out, ir.Cmp(ir.OpGe, v, ir.BigInt(d.Lo)), ir.Cmp(ir.OpLe, v, ir.BigInt(hi)))
	}
	return ir.And(out...)
}

// integerItem reports whether e, on row x, is surely an integer the
// driver returns as one: a column of x the schema declares an integer
// type (not generated; MySQL's BOOLEAN too), an integer literal, or
// - + * of them.
func (m *lowerer) integerItem(e sqlir.Expr, x *symbol) bool {
	switch e := e.(type) {
	case *sqlir.Num:
		return e.IsInt
	case *sqlir.ColRef:
		t := m.schemaTable(x.table)
		if t == nil || m.column(e, x) == nil || m.generated(e, x) != nil {
			return false
		}
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, e.Name) {
				ty := strings.ToLower(c.Type)
				_, _, ok := intType(ty)
				// MySQL's BOOLEAN is TINYINT(1).
				return ok || m.opt.Dialect == "mysql" && strings.HasPrefix(ty, "bool")
			}
		}
	case *sqlir.Unary:
		return e.Op == sqlir.OpNeg && m.integerItem(e.X, x)
	case *sqlir.Binary:
		return (e.Op == sqlir.OpAdd || e.Op == sqlir.OpSub || e.Op == sqlir.OpMul) && m.integerItem(e.X, x) && m.integerItem(e.Y, x)
	}
	return false
}
