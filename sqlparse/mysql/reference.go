package mysql

import (
	"fmt"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// referenceShapes names the conditions with a subquery ParseReference
// reads, for the reason given with any other.
const referenceShapes = "only T.c IN (SELECT k FROM U) and EXISTS (SELECT 1 FROM U WHERE U.k = T.c), as the whole condition, are checked"

// ParseReference reads a referential constraint: "T.c IN (SELECT k FROM
// U)" or "EXISTS (SELECT 1 FROM U WHERE U.k = T.c)" (either side of the
// =, U possibly aliased), as the whole condition. An unqualified c is a
// column of defaultTable. Any other condition with a subquery is an error
// matching ErrNotOneRow that says why it is not one (a subquery over the
// constrained table itself is a condition over two of its rows).
func ParseReference(text, defaultTable string) (ref *sqlir.Reference, err error) {
	defer rules.Recover(&err)
	q := constraintPrefix + text
	tk := sqlparser.NewStringTokenizer(q)
	ast, perr := sqlparser.ParseNext(tk)
	if perr != nil {
		return nil, fmt.Errorf("constraint %q: %w", text, perr)
	}
	sel, ok := ast.(*sqlparser.Select)
	if !ok || sel.Where == nil {
		return nil, fmt.Errorf("constraint %q is not a single condition", text)
	}
	switch e := sel.Where.Expr.(type) {
	case *sqlparser.ComparisonExpr:
		ref = inSubquery(e, defaultTable)
	case *sqlparser.ExistsExpr:
		ref = existsSubquery(e.Subquery, defaultTable)
		if ref != nil {
			ref.NullBreaks = true
		}
	}
	if ref != nil {
		return ref, nil
	}
	return nil, fmt.Errorf("constraint %q: %w", text, rules.NotOneRow(notReference(sel.Where.Expr, defaultTable)))
}

// inSubquery reads T.c IN (SELECT k FROM U) (nil: another shape).
func inSubquery(e *sqlparser.ComparisonExpr, defaultTable string) *sqlir.Reference {
	col, ok := e.Left.(*sqlparser.ColName)
	sub, ok2 := e.Right.(*sqlparser.Subquery)
	if !ok || !ok2 || e.Operator != sqlparser.InStr {
		return nil
	}
	s, u, alias := plainSelect(sub)
	if s == nil || s.Where != nil || len(s.SelectExprs) != 1 {
		return nil
	}
	ae, ok := s.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil
	}
	k, ok := ae.Expr.(*sqlparser.ColName)
	if !ok || !qualifiedBy(k, u, alias, true) {
		return nil
	}
	t := tableOf(col, defaultTable)
	if t == "" || strings.EqualFold(t, u) {
		return nil
	}
	return &sqlir.Reference{Table: t, Column: col.Name.String(), RefTable: u, RefColumn: k.Name.String()}
}

// existsSubquery reads EXISTS (SELECT … FROM U WHERE U.k = T.c) (nil:
// another shape).
func existsSubquery(sub *sqlparser.Subquery, defaultTable string) *sqlir.Reference {
	s, u, alias := plainSelect(sub)
	if s == nil || s.Where == nil {
		return nil
	}
	eq, ok := s.Where.Expr.(*sqlparser.ComparisonExpr)
	if !ok || eq.Operator != sqlparser.EqualStr {
		return nil
	}
	l, ok := eq.Left.(*sqlparser.ColName)
	r, ok2 := eq.Right.(*sqlparser.ColName)
	if !ok || !ok2 {
		return nil
	}
	if !qualifiedBy(l, u, alias, false) {
		l, r = r, l
	}
	if !qualifiedBy(l, u, alias, false) || qualifiedBy(r, u, alias, false) || r.Qualifier.Name.IsEmpty() {
		return nil
	}
	t := tableOf(r, defaultTable)
	if t == "" || strings.EqualFold(t, u) {
		return nil
	}
	return &sqlir.Reference{Table: t, Column: r.Name.String(), RefTable: u, RefColumn: l.Name.String()}
}

// plainSelect returns the subquery's SELECT if it reads one table and
// does nothing else (no GROUP BY, HAVING, ORDER BY, LIMIT, DISTINCT,
// locking), with the table's name and alias.
func plainSelect(sub *sqlparser.Subquery) (*sqlparser.Select, string, string) {
	s, ok := sub.Select.(*sqlparser.Select)
	if !ok || len(s.From) != 1 || len(s.GroupBy) > 0 || s.Having != nil || len(s.OrderBy) > 0 ||
		s.Limit != nil || s.Distinct != "" || s.Lock != "" {
		return nil, "", ""
	}
	at, ok := s.From[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, "", ""
	}
	tn, ok := at.Expr.(sqlparser.TableName)
	if !ok || !tn.Qualifier.IsEmpty() {
		return nil, "", ""
	}
	return s, tn.Name.String(), at.As.String()
}

// qualifiedBy reports whether column c names table u (alias, if any, or
// its name); bareOK accepts an unqualified column.
func qualifiedBy(c *sqlparser.ColName, u, alias string, bareOK bool) bool {
	q := c.Qualifier.Name.String()
	switch {
	case q == "":
		return bareOK
	case alias != "":
		return strings.EqualFold(q, alias)
	}
	return strings.EqualFold(q, u)
}

// tableOf returns the table column c names, else defaultTable.
func tableOf(c *sqlparser.ColName, defaultTable string) string {
	if q := c.Qualifier.Name.String(); q != "" {
		return q
	}
	return defaultTable
}

// notReference says why condition e, which has a subquery, is not one
// ParseReference reads.
func notReference(e sqlparser.Expr, defaultTable string) string {
	outer := map[string]bool{}
	if defaultTable != "" {
		outer[strings.ToLower(defaultTable)] = true
	}
	var inner []string
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch x := node.(type) {
		case *sqlparser.Subquery:
			if s, ok := x.Select.(*sqlparser.Select); ok {
				for _, f := range s.From {
					if at, ok := f.(*sqlparser.AliasedTableExpr); ok {
						if tn, ok := at.Expr.(sqlparser.TableName); ok {
							inner = append(inner, strings.ToLower(tn.Name.String()))
						}
					}
				}
			}
			return false, nil
		case *sqlparser.ColName:
			if q := x.Qualifier.Name.String(); q != "" {
				outer[strings.ToLower(q)] = true
			}
		}
		return true, nil
	}, e)
	for _, t := range inner {
		if outer[t] {
			return fmt.Sprintf("the subquery reads %s, the constrained table itself (a condition over two rows of one table is not modelled); %s", t, referenceShapes)
		}
	}
	return "subqueries are not allowed in a constraint (it must be over one row) except a reference to a key: " + referenceShapes
}
