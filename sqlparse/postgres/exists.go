package postgres

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/dbverify/dbverify/sqlir"
)

// existsRows marks out, the translation of s, as SELECT EXISTS (SELECT …
// FROM t WHERE w) when s is exactly that (no FROM, WHERE or anything
// else of its own) and the subquery reads one table plainly: out then
// names t and w, and is Complex with ExistsRows set (its one result is
// whether a row of t satisfies w).
func (t *translator) existsRows(s *pg.SelectStmt, out *sqlir.Select) {
	if len(s.FromClause) > 0 || s.WhereClause != nil || len(s.TargetList) != 1 || len(s.GroupClause) > 0 ||
		s.HavingClause != nil || len(s.ValuesLists) > 0 || s.LimitCount != nil || s.LimitOffset != nil ||
		len(s.LockingClause) > 0 || len(s.DistinctClause) > 0 || s.WithClause != nil {
		return
	}
	sl := s.TargetList[0].GetResTarget().GetVal().GetSubLink()
	if sl == nil || sl.SubLinkType != pg.SubLinkType_EXISTS_SUBLINK {
		return
	}
	sub := sl.Subselect.GetSelectStmt()
	if sub == nil {
		return
	}
	scope, reads := t.scope, t.reads
	in := t.selectStmt(sub)
	t.scope, t.reads = scope, reads
	if in.Complex || in.SkipsRows || in.Table == "" || len(in.AllTables) > 0 || in.SkipLocked {
		return
	}
	out.Table, out.Where = in.Table, in.Where
	out.Complex, out.Reason, out.ExistsRows = true, "EXISTS subquery", true
	out.AllTables = []string{in.Table}
}
