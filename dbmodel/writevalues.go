package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The values a write stores in a column (write.go): an UPDATE's SET, an
// INSERT's omitted columns.

// setValue returns the value assignment a of u writes to row x (of sort
// s) and the conditions without which the write fails: a value out of
// the column's range, an unsigned result out of range, a NULL for a NOT
// NULL column — except that MySQL's IGNORE stores the first clipped and
// the last as the implicit default (insertignore.go).
func (m *lowerer) setValue(em *emitter, t *tableModel, u updateSpec, a sqlir.Assignment, x *symbol, s ir.Sort) (ir.Expr, []ir.Expr) {
	col := strings.ToLower(a.Col)
	val := m.convert(m.assigned(t, a.Col, a.Value, x, u.args), s)
	val = m.untrackedNull(em, t, col, a.Value, u.args, val, em.info)
	var fails []ir.Expr
	if u.ignore {
		val = m.implicitDefault(t, col, a.Value, x, u.args, m.clipped(t.name, col, val), em.info)
	} else {
		fails = append(fails, m.inColumnRange(t.name, col, val))
		if ok := m.notNullWritten(t, col, a.Value, x, u.args); ok != ir.True {
			fails = append(fails, ok)
		}
	}
	if ok := m.unsignedInRange(a.Value, x, u.args); ok != ir.True {
		fails = append(fails, ok)
	}
	return val, fails
}

// unsetValue returns the value of column c (of sort s) of table t that
// INSERT q does not set, and a fact about it (or nil): with the layout
// known, its default (omitted, omittedNull); else (INSERT … SELECT, or
// VALUES without a column list the schema does not give) an arbitrary
// value marked as an approximation.
func (m *lowerer) unsetValue(t *tableModel, q *sqlir.Insert, c string, s ir.Sort, layoutKnown bool, info ir.Info) (ir.Expr, ir.Expr) {
	switch {
	case layoutKnown && strings.HasPrefix(c, nullFlagPrefix):
		return m.omittedNull(t, strings.TrimPrefix(c, nullFlagPrefix), info), nil
	case layoutKnown:
		return m.omitted(t, c, s, info, q)
	}
	fv := m.freshVar("$inserted_"+c, s)
	if q.FromSelect {
		fv.Approx = fmt.Sprintf("column %s of the INSERT … SELECT at %s: the selected values are not modelled", c, info.Position())
	} else {
		fv.Approx = fmt.Sprintf("column %s of the INSERT without a column list at %s: the column order is not known without --schema", c, info.Position())
	}
	return fv, nil
}
