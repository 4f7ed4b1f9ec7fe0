package frontend

import (
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// WrittenTables returns every table some module function writes by SQL
// with known text, lower-cased and sorted.
func (l *Loaded) WrittenTables() []string {
	set := map[string]bool{}
	for _, s := range l.sites {
		if s.Stmt != nil && sqlir.IsWrite(s.Stmt) {
			for _, t := range s.Stmt.Tables() {
				set[t] = true
			}
		}
	}
	return sortedKeys(set)
}

// Columns returns the columns of table that the program's SQL names,
// lower-cased and sorted, and whether some statement on the table may
// touch columns it does not name (SELECT *, INSERT without a column list,
// a join or subquery whose columns are not resolved to one table).
func (l *Loaded) Columns(table string) (named []string, all bool) {
	table = strings.ToLower(table)
	set := map[string]bool{}
	add := func(e sqlir.Expr, single bool) {
		sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
			if c, ok := x.(*sqlir.ColRef); ok && (strings.EqualFold(c.Table, table) || c.Table == "" && single) {
				set[strings.ToLower(c.Name)] = true
			}
			return nil, false
		})
	}
	for _, s := range l.sites {
		if s.Stmt == nil || !slices.Contains(s.Stmt.Tables(), table) {
			continue
		}
		switch q := s.Stmt.(type) {
		case *sqlir.Update:
			for _, a := range q.Set {
				set[strings.ToLower(a.Col)] = true
				add(a.Value, true)
			}
			add(q.Where, true)
		case *sqlir.Insert:
			if len(q.Columns) == 0 {
				all = true
			}
			for _, c := range q.Columns {
				set[strings.ToLower(c)] = true
			}
			for _, a := range q.OnConflict {
				set[strings.ToLower(a.Col)] = true
				add(a.Value, true)
			}
		case *sqlir.Delete:
			add(q.Where, true)
		case *sqlir.Select:
			single := !q.Complex
			if q.Complex {
				all = true
			}
			for _, it := range q.Columns {
				if it.Star {
					all = true
					continue
				}
				add(it.Expr, single)
			}
			add(q.Where, single)
		}
	}
	return sortedKeys(set), all
}
