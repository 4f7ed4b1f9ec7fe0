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
// instead: 0 for a number, '' for a string (checked on MariaDB 10.11 with
// STRICT_TRANS_TABLES: corpus trust/mysql_insert_ignore_null_*; an
// independent tester's m9). A numeric column gets 0; any other column an
// arbitrary value marked as an approximation. Without IGNORE the INSERT
// fails, and SQLite's INSERT OR IGNORE skips the row: not this.

// ignoredNull replaces the value vals gives NOT NULL column col of t,
// which INSERT IGNORE q sets to e, by the implicit default where e is
// NULL.
func (m *lowerer) ignoredNull(t *tableModel, q *sqlir.Insert, col string, e sqlir.Expr, args []ir.Expr, vals map[string]ir.Expr, info ir.Info) {
	c := strings.ToLower(col)
	if m.opt.Dialect != "mysql" || !q.OnConflictNothing || t.schema == nil || vals[c] == nil {
		return
	}
	if _, nullable := t.sorts[nullFlag(c)]; nullable || !notNullColumn(t.schema, c) {
		return
	}
	null := m.isNull(e, nil, args)
	if null == ir.False {
		return
	}
	sort := t.sorts[c]
	var def ir.Expr = ir.IntLit(0)
	if !numericColumn(t.schema, c) {
		v := m.freshVar("$implicit_default", sort)
		v.Approx = fmt.Sprintf("the implicit default INSERT IGNORE at %s stores for a NULL in NOT NULL column %s ('' for a string), not modelled", info.Position(), col)
		def = v
	}
	vals[c] = ir.IteOf(null, m.convert(def, sort), m.convert(vals[c], sort))
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
