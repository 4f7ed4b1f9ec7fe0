package mysql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// SELECT statements.

func (t *translator) selectStmt(ss sqlparser.SelectStatement) *sqlir.Select {
	switch s := ss.(type) {
	case *sqlparser.ParenSelect:
		return t.selectStmt(s.Select)
	case *sqlparser.Union:
		var leaves []*sqlir.Select
		var walk func(sqlparser.SelectStatement)
		walk = func(x sqlparser.SelectStatement) {
			switch y := x.(type) {
			case *sqlparser.Union:
				walk(y.Left)
				walk(y.Right)
			case *sqlparser.ParenSelect:
				walk(y.Select)
			case *sqlparser.Select:
				leaves = append(leaves, t.simpleSelect(y))
			}
		}
		walk(s)
		out, all := rules.SetOperation("UNION", leaves)
		out.AllTables = rules.DedupeFold(all...)
		switch s.Lock {
		case sqlparser.ForUpdateStr:
			out.ForUpdate = true
		case sqlparser.ShareModeStr:
			out.ForShare = true
		}
		return out
	case *sqlparser.Select:
		return t.simpleSelect(s)
	}
	return &sqlir.Select{Complex: true, Reason: fmt.Sprintf("unsupported SELECT form %T", ss)}
}

func (t *translator) simpleSelect(s *sqlparser.Select) *sqlir.Select {
	t.reads = nil
	fi := t.from(s.From)
	out := &sqlir.Select{}
	var reasons []string
	if fi.joins || len(fi.tables) > 1 {
		reasons = append(reasons, "join")
	}
	if fi.derived {
		reasons = append(reasons, "subquery in FROM")
	}
	if s.Distinct != "" {
		reasons = append(reasons, "DISTINCT")
	}
	if len(s.GroupBy) > 0 {
		reasons = append(reasons, "GROUP BY")
	}
	if s.Having != nil {
		reasons = append(reasons, "HAVING")
	}
	if agg := aggregateIn(s.SelectExprs); agg != "" {
		reasons = append(reasons, "aggregate "+agg)
	}
	if len(fi.tables) == 1 && !fi.joins && !fi.derived {
		out.Table = fi.tables[0]
	}
	for _, se := range s.SelectExprs {
		out.Columns = append(out.Columns, t.selectItem(se))
	}
	if s.Where != nil {
		out.Where = t.expr(s.Where.Expr)
	}
	if s.Having != nil {
		t.collectReads(s.Having)
	}
	switch s.Lock {
	case sqlparser.ForUpdateStr:
		out.ForUpdate = true
	case sqlparser.ShareModeStr:
		out.ForShare = true
	}
	if s.Limit != nil {
		out.SkipsRows = s.Limit.Offset != nil || !positiveLiteral(s.Limit.Rowcount)
	}
	if len(reasons) > 0 {
		out.Complex = true
		out.Reason = strings.Join(reasons, ", ")
	} else {
		t.orderBy(s, out)
	}
	out.CountRows = out.Table != "" && len(reasons) == 1 && reasons[0] == "aggregate COUNT" &&
		len(t.reads) == 0 && s.Limit == nil && len(s.OrderBy) == 0 && len(s.SelectExprs) == 1 &&
		isCountRows(s.SelectExprs[0])
	if out.Complex || len(t.reads) > 0 {
		out.AllTables = rules.DedupeFold(fi.tables, t.reads)
	}
	t.existsRows(s, out)
	return out
}

// isCountRows reports a select list entry COUNT(*), or COUNT of a
// constant other than NULL: the number of rows.
func isCountRows(se sqlparser.SelectExpr) bool {
	ae, ok := se.(*sqlparser.AliasedExpr)
	if !ok {
		return false
	}
	f, ok := ae.Expr.(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() || f.Distinct || !strings.EqualFold(f.Name.String(), "count") || len(f.Exprs) != 1 {
		return false
	}
	switch a := f.Exprs[0].(type) {
	case *sqlparser.StarExpr:
		return a.TableName.IsEmpty()
	case *sqlparser.AliasedExpr:
		_, lit := a.Expr.(*sqlparser.SQLVal)
		return lit
	}
	return false
}

// orderBy fills the ORDER BY terms and the literal LIMIT of a
// single-table SELECT.
func (t *translator) orderBy(s *sqlparser.Select, out *sqlir.Select) {
	if s.Limit != nil && s.Limit.Offset == nil && positiveLiteral(s.Limit.Rowcount) {
		v := s.Limit.Rowcount.(*sqlparser.SQLVal)
		out.Limit, _ = strconv.ParseInt(string(v.Val), 0, 64)
	}
	for _, o := range s.OrderBy {
		out.OrderBy = append(out.OrderBy, sqlir.OrderTerm{Expr: t.expr(o.Expr), Desc: o.Direction == sqlparser.DescScr})
	}
	out.OrderBy = rules.ResolveOrder(out.Columns, out.OrderBy)
}

func (t *translator) selectItem(se sqlparser.SelectExpr) sqlir.SelectItem {
	switch x := se.(type) {
	case *sqlparser.StarExpr:
		return sqlir.SelectItem{Star: true, Expr: &sqlir.ColRef{Table: t.resolve(x.TableName.Name.String()), Name: "*"}}
	case *sqlparser.AliasedExpr:
		return sqlir.SelectItem{Expr: t.expr(x.Expr), Alias: x.As.String()}
	}
	return sqlir.SelectItem{Expr: t.unknown(se)}
}

// aggregateIn returns the upper-cased name of the first aggregate
// function in exprs outside subqueries, or "".
func aggregateIn(nodes ...sqlparser.SQLNode) string {
	found := ""
	for _, n := range nodes {
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if found != "" {
				return false, nil
			}
			switch x := node.(type) {
			case *sqlparser.Subquery:
				return false, nil
			case *sqlparser.FuncExpr:
				if x.IsAggregate() {
					found = strings.ToUpper(x.Name.String())
					return false, nil
				}
			case *sqlparser.GroupConcatExpr:
				found = "GROUP_CONCAT"
				return false, nil
			}
			return true, nil
		}, n)
	}
	return found
}

// positiveLiteral reports whether e is an integer literal of at least 1
// (LIMIT 1 keeps a matching row; LIMIT 0 or ? may not).
func positiveLiteral(e sqlparser.Expr) bool {
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return false
	}
	n, err := strconv.ParseInt(string(v.Val), 0, 64)
	return err == nil && n > 0
}
