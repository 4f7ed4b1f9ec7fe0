package postgres

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// SELECT statements.

func (t *translator) selectStmt(s *pg.SelectStmt) *sqlir.Select {
	t.reads = nil
	t.with(s.WithClause)
	cteReads := t.reads
	var out *sqlir.Select
	if s.Op != pg.SetOperation_SETOP_NONE && s.Op != pg.SetOperation_SET_OPERATION_UNDEFINED {
		out = t.setOperation(s)
	} else {
		out = t.simpleSelect(s)
	}
	if s.WithClause != nil {
		out.AllTables = rules.DedupeFold(out.Tables(), cteReads)
		out.Complex = true
		if out.Reason == "" {
			out.Reason = "WITH"
		} else {
			out.Reason = "WITH, " + out.Reason
		}
		out.Table = ""
		if out.AllTables == nil {
			out.AllTables = []string{}
		}
	}
	return out
}

func (t *translator) setOperation(s *pg.SelectStmt) *sqlir.Select {
	var leaves []*sqlir.Select
	var walk func(x *pg.SelectStmt)
	walk = func(x *pg.SelectStmt) {
		if x == nil {
			return
		}
		if x.Op == pg.SetOperation_SETOP_NONE || x.Op == pg.SetOperation_SET_OPERATION_UNDEFINED {
			t.with(x.WithClause)
			leaves = append(leaves, t.simpleSelect(x))
			return
		}
		t.with(x.WithClause)
		walk(x.Larg)
		walk(x.Rarg)
	}
	walk(s.Larg)
	walk(s.Rarg)
	reason := strings.TrimPrefix(s.Op.String(), "SETOP_")
	out, all := rules.SetOperation(reason, leaves)
	t.locks(s.LockingClause, out)
	out.AllTables = rules.DedupeFold(append(all, t.reads)...) // + WITH queries of the branches
	if out.AllTables == nil {
		out.AllTables = []string{}
	}
	return out
}

func (t *translator) locks(clauses []*pg.Node, out *sqlir.Select) {
	for _, n := range clauses {
		if n.GetLockingClause().GetWaitPolicy() == pg.LockWaitPolicy_LockWaitSkip {
			out.SkipLocked = true
		}
		switch n.GetLockingClause().GetStrength() {
		case pg.LockClauseStrength_LCS_FORUPDATE, pg.LockClauseStrength_LCS_FORNOKEYUPDATE:
			out.ForUpdate = true
		case pg.LockClauseStrength_LCS_FORSHARE:
			out.ForShare = true
		case pg.LockClauseStrength_LCS_FORKEYSHARE:
			out.KeyShare = true
		}
		// FOR KEY SHARE locks nothing in the model: it blocks only a
		// DELETE or a change of the row's key, not an UPDATE of another
		// column (which takes FOR NO KEY UPDATE), so treating it as a
		// shared lock would remove schedules the engine runs.
	}
}

func (t *translator) simpleSelect(s *pg.SelectStmt) *sqlir.Select {
	saved := t.reads
	t.reads = nil
	t.scope = map[string]string{}
	fi := t.from(s.FromClause)
	out := &sqlir.Select{}
	var reasons []string
	if fi.joins || len(fi.tables) > 1 {
		reasons = append(reasons, "join")
	}
	if fi.derived {
		reasons = append(reasons, "subquery in FROM")
	}
	if fi.funcs {
		reasons = append(reasons, "function in FROM")
	}
	if len(s.DistinctClause) > 0 {
		reasons = append(reasons, "DISTINCT")
	}
	if len(s.GroupClause) > 0 {
		reasons = append(reasons, "GROUP BY")
	}
	if s.HavingClause != nil {
		reasons = append(reasons, "HAVING")
	}
	agg, window := pgAggregateIn(t.sqlite, append(append([]*pg.Node(nil), s.TargetList...), s.SortClause...))
	if agg != "" {
		reasons = append(reasons, "aggregate "+agg)
	}
	if window || len(s.WindowClause) > 0 {
		reasons = append(reasons, "window function")
	}
	if len(s.ValuesLists) > 1 {
		reasons = append(reasons, "VALUES")
	}
	if len(fi.tables) == 1 && !fi.joins && !fi.derived && !fi.funcs {
		out.Table = fi.tables[0]
	}
	for _, n := range s.TargetList {
		out.Columns = append(out.Columns, t.selectItem(n))
	}
	if len(s.ValuesLists) > 0 {
		for _, v := range s.ValuesLists[0].GetList().GetItems() {
			out.Columns = append(out.Columns, sqlir.SelectItem{Expr: t.expr(v)})
		}
		for _, row := range s.ValuesLists[1:] {
			t.collectReads(row)
		}
	}
	if s.WhereClause != nil {
		out.Where = t.expr(s.WhereClause)
	}
	t.collectReads(s.HavingClause)
	for _, n := range s.GroupClause {
		t.collectReads(n)
	}
	for _, n := range s.SortClause {
		t.collectReads(n)
	}
	t.collectReads(s.LimitCount)
	t.collectReads(s.LimitOffset)
	out.SkipsRows = s.LimitOffset != nil || (s.LimitCount != nil && !positiveLiteral(s.LimitCount))
	t.locks(s.LockingClause, out)
	if len(reasons) > 0 {
		out.Complex = true
		out.Reason = strings.Join(reasons, ", ")
	} else {
		t.orderBy(s, out)
	}
	out.CountRows = out.Table != "" && len(reasons) == 1 && reasons[0] == "aggregate COUNT" &&
		len(t.reads) == 0 && s.LimitCount == nil && s.LimitOffset == nil && len(s.SortClause) == 0 &&
		len(s.TargetList) == 1 && isCountRows(s.TargetList[0])
	if out.Complex || len(t.reads) > 0 {
		out.AllTables = rules.DedupeFold(fi.tables, t.reads)
		if out.AllTables == nil {
			out.AllTables = []string{}
		}
	}
	t.existsRows(s, out)
	t.reads = append(saved, t.reads...)
	return out
}

// isCountRows reports a select list entry COUNT(*), or COUNT of a
// constant other than NULL: the number of rows.
func isCountRows(n *pg.Node) bool {
	f := n.GetResTarget().GetVal().GetFuncCall()
	if f == nil || f.Over != nil || f.AggDistinct || f.AggFilter != nil || len(f.AggOrder) > 0 || f.AggWithinGroup {
		return false
	}
	if name, _ := pgName(f.Funcname); name != "count" {
		return false
	}
	if f.AggStar {
		return true
	}
	if len(f.Args) != 1 {
		return false
	}
	c := f.Args[0].GetAConst()
	return c != nil && !c.Isnull
}

// selectItem translates a target list or RETURNING entry.
func (t *translator) selectItem(n *pg.Node) sqlir.SelectItem {
	rt := n.GetResTarget()
	if rt == nil {
		return sqlir.SelectItem{Expr: t.unknown(n)}
	}
	if cr := rt.Val.GetColumnRef(); cr != nil && len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
		q := ""
		if k := len(cr.Fields); k >= 2 {
			q = t.resolve(cr.Fields[k-2].GetString_().GetSval())
		}
		return sqlir.SelectItem{Star: true, Expr: &sqlir.ColRef{Table: q, Name: "*"}}
	}
	return sqlir.SelectItem{Expr: t.expr(rt.Val), Alias: rt.Name}
}

func (t *translator) returning(list []*pg.Node) []sqlir.SelectItem {
	var out []sqlir.SelectItem
	for _, n := range list {
		out = append(out, t.selectItem(n))
	}
	return out
}

// pgAggregates are the built-in aggregate functions.
func isPgAggregate(name string) bool {
	switch name {
	case "count", "sum", "avg", "min", "max", "array_agg", "string_agg",
		"bool_and", "bool_or", "every", "bit_and", "bit_or", "bit_xor",
		"json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
		"json_agg_strict", "jsonb_agg_strict", "json_objectagg", "json_arrayagg",
		"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
		"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count",
		"regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy",
		"percentile_cont", "percentile_disc", "mode", "xmlagg", "any_value",
		"range_agg", "range_intersect_agg":
		return true
	}
	return false
}

// pgAggregateIn returns the upper-cased name of the first aggregate call
// in nodes outside subqueries (or "") and whether a window function occurs.
// In SQLite, max and min with two or more arguments are scalar functions.
func pgAggregateIn(sqlite bool, nodes []*pg.Node) (agg string, window bool) {
	for _, n := range nodes {
		pgVisit(n, func(x proto.Message) bool {
			switch f := x.(type) {
			case *pg.SubLink, *pg.RangeSubselect:
				return false
			case *pg.FuncCall:
				if f.Over != nil {
					window = true
					return true
				}
				name, _ := pgName(f.Funcname)
				scalar := sqlite && (name == "max" || name == "min") && len(f.Args) >= 2
				if agg == "" && (isPgAggregate(name) && !scalar || f.AggStar || f.AggDistinct ||
					f.AggFilter != nil || len(f.AggOrder) > 0 || f.AggWithinGroup) {
					agg = strings.ToUpper(name)
				}
			}
			return true
		})
	}
	return agg, window
}

// orderBy fills the ORDER BY terms and the literal LIMIT of a
// single-table SELECT.
func (t *translator) orderBy(s *pg.SelectStmt, out *sqlir.Select) {
	if s.LimitOffset == nil && s.LimitCount != nil && positiveLiteral(s.LimitCount) {
		if v, ok := s.LimitCount.GetAConst().Val.(*pg.A_Const_Ival); ok {
			out.Limit = int64(v.Ival.GetIval())
		}
	}
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		if sb == nil {
			out.OrderBy = append(out.OrderBy, sqlir.OrderTerm{Expr: t.unknown(n)})
			continue
		}
		o := sqlir.OrderTerm{Expr: t.expr(sb.Node), Desc: sb.SortbyDir == pg.SortByDir_SORTBY_DESC,
			NullsGiven: sb.SortbyNulls == pg.SortByNulls_SORTBY_NULLS_FIRST || sb.SortbyNulls == pg.SortByNulls_SORTBY_NULLS_LAST}
		if sb.SortbyDir == pg.SortByDir_SORTBY_USING {
			o.Expr = t.unknown(n)
		}
		out.OrderBy = append(out.OrderBy, o)
	}
	out.OrderBy = rules.ResolveOrder(out.Columns, out.OrderBy)
}

// positiveLiteral reports whether n is an integer literal of at least 1
// (LIMIT 1 keeps a matching row; LIMIT 0, ALL or $1 may not).
func positiveLiteral(n *pg.Node) bool {
	c := n.GetAConst()
	if c == nil || c.Isnull {
		return false
	}
	v, ok := c.Val.(*pg.A_Const_Ival)
	return ok && v.Ival.GetIval() > 0
}
