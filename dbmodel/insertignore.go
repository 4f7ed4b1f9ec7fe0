package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// MySQL's INSERT IGNORE (sqlparse reads it as ON CONFLICT DO NOTHING)
// also turns the error of a NULL written into a NOT NULL column into a
// warning, in strict mode too, and stores the column's implicit default
// instead: 0 for a number, '' for a string — not the column's DEFAULT
// (checked on MariaDB 10.11 with STRICT_TRANS_TABLES: corpus
// trust/mysql_insert_ignore_null_*; an independent tester's m9;
// groundtruth TestIgnoreWrites). A numeric column gets 0; any other column
// an arbitrary value marked as an approximation. It does the same with a
// value out of an integer column's range, which it stores clipped to the
// nearest bound (2^31 in an INT: 2147483647; -5 in an UNSIGNED column: 0),
// and so does the ON DUPLICATE KEY UPDATE of an INSERT IGNORE. (An error
// of the expression itself, BIGINT arithmetic that overflows, and a
// broken CHECK still fail the statement.) Without IGNORE the INSERT fails;
// SQLite's INSERT OR IGNORE skips the row (insertedValues), and its OR
// REPLACE stores the column's DEFAULT, failing without one (replacedNull).

// mysqlIgnore reports whether INSERT q is MySQL's INSERT IGNORE.
func (m *lowerer) mysqlIgnore(q *sqlir.Insert) bool {
	return m.opt.Dialect == "mysql" && q.OnConflictNothing
}

// ignoredNull replaces the value vals gives NOT NULL column col of t,
// which INSERT IGNORE q sets to e, by the implicit default where e is
// NULL.
func (m *lowerer) ignoredNull(t *tableModel, q *sqlir.Insert, col string, e sqlir.Expr, args []ir.Expr, vals map[string]ir.Expr, info ir.Info) {
	c := strings.ToLower(col)
	if !m.mysqlIgnore(q) || vals[c] == nil {
		return
	}
	vals[c] = m.implicitDefault(t, c, e, nil, args, vals[c], info)
}

// implicitDefault is val, the value of e written to column col of t
// (row x's, for an update) by a MySQL IGNORE write, or the column's
// implicit default where e is NULL and col is NOT NULL.
func (m *lowerer) implicitDefault(t *tableModel, c string, e sqlir.Expr, x *symbol, args []ir.Expr, val ir.Expr, info ir.Info) ir.Expr {
	if t.schema == nil {
		return val
	}
	if _, nullable := t.sorts[nullFlag(c)]; nullable || !notNullColumn(t.schema, c) {
		return val
	}
	null := m.isNull(e, x, args)
	if null == ir.False {
		return val
	}
	sort := t.sorts[c]
	var def ir.Expr = ir.IntLit(0)
	if !numericColumn(t.schema, c) {
		v := m.freshVar("$implicit_default", sort)
		v.Approx = fmt.Sprintf("the implicit default INSERT IGNORE at %s stores for a NULL in NOT NULL column %s ('' for a string), not modelled", info.Position(), c)
		def = v
	}
	return ir.IteOf(null, m.convert(def, sort), m.convert(val, sort))
}

// clipped is the value a MySQL IGNORE write stores for v in column col of
// table: v itself, or out of the integer column's range its nearest bound.
func (m *lowerer) clipped(table, col string, v ir.Expr) ir.Expr {
	if v == nil || v.Sort() != ir.Int {
		return v
	}
	lo, hi, ok := m.columnRange(table, col)
	if !ok {
		return v
	}
	l, h := ir.BigInt(lo), ir.BigInt(hi)
	return ir.IteOf(ir.Cmp(ir.OpLt, v, l), l, ir.IteOf(ir.Cmp(ir.OpGt, v, h), h, v))
}

// replacedNull gives NOT NULL column col of t, which SQLite's INSERT OR
// REPLACE sets to a value that may be NULL (notNull: it is not), the
// column's DEFAULT where it is NULL, and reports whether the column has
// one (without, the INSERT fails: checked on SQLite, groundtruth
// TestIgnoreWrites).
func (m *lowerer) replacedNull(t *tableModel, col string, notNull ir.Expr, vals map[string]ir.Expr, info ir.Info) bool {
	c := strings.ToLower(col)
	if t.schema == nil || vals[c] == nil {
		return false
	}
	var sc *sqlir.Column
	for i := range t.schema.Columns {
		if strings.EqualFold(t.schema.Columns[i].Name, c) {
			sc = &t.schema.Columns[i]
		}
	}
	if sc == nil || sc.Default == nil && !sc.HasDefault {
		return false
	}
	sort := t.sorts[c]
	var def ir.Expr
	if sc.Default != nil {
		def = m.convert(m.expr(sc.Default, nil, nil), sort)
	} else {
		v := m.freshVar("$default_"+c, sort)
		v.Approx = fmt.Sprintf("the DEFAULT of column %s, which INSERT OR REPLACE at %s stores for a NULL, not modelled", sc.Name, info.Position())
		def = v
	}
	vals[c] = ir.IteOf(ir.Not(notNull), def, m.convert(vals[c], sort))
	return true
}

// notNullColumn reports whether t declares column col NOT NULL.
func notNullColumn(t *sqlir.Table, col string) bool {
	for _, sc := range t.Columns {
		if strings.EqualFold(sc.Name, col) {
			return sc.NotNull
		}
	}
	return false
}
