package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// timeColumns records in t.times the columns of a table no schema
// declares that hold times: a statement assigns them a Go time.Time or
// compares them with one (ir.Var.Time). Their row symbols' columns are
// marked Time, so that a trace prints their values as the timestamps the
// SQL binds: a row printed renews_at = -1 beside the UPDATE's renews_at
// < '2024-01-02 00:00:00'. (With a schema, its DATE and TIMESTAMP
// columns are printed as dates after the run: pipeline's printDates.)
func (t *tableModel) timeColumns(src *ir.Program) {
	t.times = map[string]bool{}
	if t.schema != nil {
		return
	}
	mark := func(col string, e sqlir.Expr, args []ir.Expr) {
		if usesTimeArg(e, args) {
			t.times[strings.ToLower(col)] = true
		}
	}
	for _, e := range src.Edges {
		if s, ok := e.Stmt.(*ir.Exec); ok {
			switch q := s.SQL.(type) {
			case *sqlir.Update:
				if t.onTable(q.Table) {
					for _, a := range q.Set {
						mark(a.Col, a.Value, s.Args)
					}
				}
			case *sqlir.Insert:
				if t.onTable(q.Table) {
					for _, row := range q.Rows {
						for i, v := range row {
							if i < len(q.Columns) {
								mark(q.Columns[i], v, s.Args)
							}
						}
					}
					for _, a := range q.OnConflict {
						mark(a.Col, a.Value, s.Args)
					}
				}
			}
		}
		table, where, args := stmtWhere(e.Stmt)
		if !t.onTable(table) || where == nil {
			continue
		}
		sqlir.Rewrite(where, func(x sqlir.Expr) (sqlir.Expr, bool) {
			if b, ok := x.(*sqlir.Binary); ok && b.Op.IsComparison() {
				for _, pair := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
					if c, ok := pair[0].(*sqlir.ColRef); ok && (c.Table == "" || t.onTable(c.Table)) {
						mark(c.Name, pair[1], args)
					}
				}
			}
			return nil, false
		})
	}
}

// usesTimeArg reports whether e is a parameter bound to a Go time.Time.
func usesTimeArg(e sqlir.Expr, args []ir.Expr) bool {
	p, ok := e.(*sqlir.Param)
	if !ok || p.Index >= len(args) {
		return false
	}
	v, ok := args[p.Index].(*ir.Var)
	return ok && v.Time
}
