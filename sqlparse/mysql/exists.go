package mysql

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
)

// existsRows marks out, the translation of s, as SELECT EXISTS (SELECT …
// FROM t WHERE w) when s is exactly that (no FROM but DUAL, no WHERE or
// anything else of its own) and the subquery reads one table plainly:
// out then names t and w, and is Complex with ExistsRows set (its one
// result is whether a row of t satisfies w), as the Postgres adapter
// does.
func (t *translator) existsRows(s *sqlparser.Select, out *sqlir.Select) {
	if !fromDual(s.From) || s.Where != nil || len(s.SelectExprs) != 1 || len(s.GroupBy) > 0 || s.Having != nil ||
		s.Limit != nil || len(s.OrderBy) > 0 || s.Lock != "" || s.Distinct != "" {
		return
	}
	ae, ok := s.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return
	}
	ex, ok := ae.Expr.(*sqlparser.ExistsExpr)
	if !ok || ex.Subquery == nil {
		return
	}
	sub, ok := ex.Subquery.Select.(*sqlparser.Select)
	if !ok {
		return
	}
	scope, reads := t.scope, t.reads
	in := t.simpleSelect(sub)
	t.scope, t.reads = scope, reads
	if in.Complex || in.SkipsRows || in.Table == "" || len(in.AllTables) > 0 || in.SkipLocked {
		return
	}
	out.Table, out.Where = in.Table, in.Where
	out.Complex, out.Reason, out.ExistsRows = true, "EXISTS subquery", true
	out.AllTables = []string{in.Table}
}

// fromDual reports a FROM clause that names no table: the parser's
// implicit DUAL of a SELECT without FROM, or DUAL itself.
func fromDual(from sqlparser.TableExprs) bool {
	if len(from) != 1 {
		return false
	}
	a, ok := from[0].(*sqlparser.AliasedTableExpr)
	if !ok || !a.As.IsEmpty() {
		return false
	}
	n, ok := a.Expr.(sqlparser.TableName)
	return ok && n.Qualifier.IsEmpty() && strings.EqualFold(n.Name.String(), "dual")
}
