package postgres

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// A data-modifying WITH read back as it is: WITH x AS (UPDATE …
// RETURNING …) SELECT a, b FROM x. PostgreSQL runs the WITH's statement
// once, to completion, and the SELECT returns the rows its RETURNING
// gives; a SELECT that only lists their columns (no WHERE, grouping,
// order, LIMIT, DISTINCT, set operation, locking or other FROM item)
// returns exactly those rows, so the statement is the UPDATE (DELETE,
// INSERT) with those columns as its RETURNING, and its rows-affected
// count, the SELECT's rows, is the write's. Any other use of a
// data-modifying WITH stays unsupported (noNestedWrites).

// returningCTE returns the write that SELECT sel reads back (see above),
// its RETURNING replaced by the columns sel lists, or false.
func returningCTE(sel *pg.SelectStmt) (*pg.Node, bool) {
	w := sel.GetWithClause()
	if w == nil || w.Recursive || len(w.Ctes) != 1 || !plainProjection(sel) {
		return nil, false
	}
	cte := w.Ctes[0].GetCommonTableExpr()
	if cte == nil || len(cte.Aliascolnames) > 0 {
		return nil, false
	}
	rv := sel.FromClause[0].GetRangeVar()
	if rv == nil || rv.Schemaname != "" || rv.Relname != cte.Ctename {
		return nil, false
	}
	names := map[string]bool{cte.Ctename: true}
	if a := rv.GetAlias().GetAliasname(); a != "" {
		names = map[string]bool{a: true}
	}
	q := cte.GetCtequery()
	switch {
	case q.GetUpdateStmt() != nil:
		u := proto.Clone(q.GetUpdateStmt()).(*pg.UpdateStmt)
		list, ok := projected(sel.TargetList, names, u.ReturningList)
		if !ok || u.WithClause != nil {
			return nil, false
		}
		u.ReturningList = list
		return &pg.Node{Node: &pg.Node_UpdateStmt{UpdateStmt: u}}, true
	case q.GetDeleteStmt() != nil:
		d := proto.Clone(q.GetDeleteStmt()).(*pg.DeleteStmt)
		list, ok := projected(sel.TargetList, names, d.ReturningList)
		if !ok || d.WithClause != nil {
			return nil, false
		}
		d.ReturningList = list
		return &pg.Node{Node: &pg.Node_DeleteStmt{DeleteStmt: d}}, true
	case q.GetInsertStmt() != nil:
		ins := proto.Clone(q.GetInsertStmt()).(*pg.InsertStmt)
		list, ok := projected(sel.TargetList, names, ins.ReturningList)
		if !ok || ins.WithClause != nil {
			return nil, false
		}
		ins.ReturningList = list
		return &pg.Node{Node: &pg.Node_InsertStmt{InsertStmt: ins}}, true
	}
	return nil, false
}

// plainProjection reports whether sel only lists columns of its one FROM
// item.
func plainProjection(sel *pg.SelectStmt) bool {
	return (sel.Op == pg.SetOperation_SETOP_NONE || sel.Op == pg.SetOperation_SET_OPERATION_UNDEFINED) &&
		len(sel.DistinctClause) == 0 && sel.IntoClause == nil && len(sel.FromClause) == 1 && sel.WhereClause == nil &&
		len(sel.GroupClause) == 0 && sel.HavingClause == nil && len(sel.WindowClause) == 0 && len(sel.ValuesLists) == 0 &&
		len(sel.SortClause) == 0 && sel.LimitOffset == nil && sel.LimitCount == nil && len(sel.LockingClause) == 0
}

// projected returns the RETURNING list that gives the columns targets
// list (column references of the WITH query, qualified, if at all, by
// one of names) of the rows returning gives, or false.
func projected(targets []*pg.Node, names map[string]bool, returning []*pg.Node) ([]*pg.Node, bool) {
	if len(returning) == 0 {
		return nil, false
	}
	var out []*pg.Node
	for _, n := range targets {
		rt := n.GetResTarget()
		fields := rt.GetVal().GetColumnRef().GetFields()
		if len(fields) == 0 || len(fields) > 2 || (len(fields) == 2 && !names[fields[0].GetString_().GetSval()]) {
			return nil, false
		}
		last := fields[len(fields)-1]
		if last.GetAStar() != nil {
			if len(targets) != 1 {
				return nil, false
			}
			return returning, true
		}
		item, ok := returnedColumn(returning, last.GetString_().GetSval())
		if !ok {
			return nil, false
		}
		if rt.Name != "" {
			item = &pg.ResTarget{Name: rt.Name, Val: item.Val, Location: item.Location}
		}
		out = append(out, &pg.Node{Node: &pg.Node_ResTarget{ResTarget: item}})
	}
	return out, true
}

// returnedColumn returns the one RETURNING item named name, or, when
// RETURNING lists *, the column name of the table written.
func returnedColumn(returning []*pg.Node, name string) (*pg.ResTarget, bool) {
	var found *pg.ResTarget
	star := false
	for _, n := range returning {
		rt := n.GetResTarget()
		fields := rt.GetVal().GetColumnRef().GetFields()
		out := rt.GetName()
		if out == "" && len(fields) > 0 {
			if fields[len(fields)-1].GetAStar() != nil {
				star = true
				continue
			}
			out = fields[len(fields)-1].GetString_().GetSval()
		}
		if out == name && name != "" {
			if found != nil {
				return nil, false
			}
			found = rt
		}
	}
	switch {
	case found != nil && star:
		return nil, false // (ambiguous where * also gives name)
	case found != nil:
		return found, true
	case star && name != "":
		col := &pg.ColumnRef{Fields: []*pg.Node{{Node: &pg.Node_String_{String_: &pg.String{Sval: name}}}}}
		return &pg.ResTarget{Val: &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: col}}}, true
	}
	return nil, false
}
