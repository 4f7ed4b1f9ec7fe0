package mysql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// constraintPrefix turns a constraint into a query sqlparser accepts; error
// offsets are shifted back by its length.
const constraintPrefix = "select 1 from dual where "

// ParseConstraint parses a row-level invariant written as a SQL boolean
// expression over one table's columns, e.g. "accounts.balance >= 0" or
// "stock >= 0 AND stock <= capacity". Arithmetic, CASE, IN lists, BETWEEN,
// IS NULL and the functions Parse models are allowed; other scalar
// functions become sqlir.Unknown. Placeholders, subqueries and aggregates
// are rejected.
//
// The table is the one every qualified column names (they must agree),
// else defaultTable; when both are given they must agree too. Column
// references keep their qualifier as written (aliases do not exist here),
// so a consumer should match constraint columns by name. Syntax errors
// wrap a *sqlparse.ParseError whose Query is text and whose Offset points into it.
func ParseConstraint(text string, defaultTable string) (c *sqlir.Constraint, err error) {
	defer rules.Recover(&err)
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("constraint is empty")
	}
	q := constraintPrefix + text
	tk := sqlparser.NewStringTokenizer(q)
	ast, perr := sqlparser.ParseNext(tk)
	if perr != nil {
		pe := toParseError(q, perr)
		pe.Query = text
		pe.Offset -= len(constraintPrefix)
		if pe.Offset < 0 {
			pe.Offset = 0
		}
		return nil, fmt.Errorf("constraint %q: %w", text, pe)
	}
	if off := tk.Position; off <= len(q) && !rules.RestIsEmpty(q[off:]) {
		return nil, fmt.Errorf("constraint %q: ';' ends the condition early", text)
	}
	sel, ok := ast.(*sqlparser.Select)
	if !ok || sel.Where == nil || len(sel.GroupBy) > 0 || sel.Having != nil ||
		len(sel.OrderBy) > 0 || sel.Limit != nil || sel.Lock != "" {
		return nil, fmt.Errorf("constraint %q is not a single condition", text)
	}
	where := sel.Where.Expr
	if err := checkConstraintAST(where); err != nil {
		return nil, fmt.Errorf("constraint %q: %w", text, err)
	}

	var quals []string
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if c, ok := node.(*sqlparser.ColName); ok {
			quals = append(quals, c.Qualifier.Name.String())
		}
		return true, nil
	}, where)
	table, err := rules.ConstraintTable(text, quals, defaultTable)
	if err != nil {
		return nil, err
	}
	tr := &translator{params: map[string]int{}, scope: map[string]string{}}
	return rules.NewConstraint(text, table, tr.expr(where))
}

// checkConstraintAST rejects placeholders, subqueries and aggregates.
func checkConstraintAST(e sqlparser.Expr) error {
	var err error
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if err != nil {
			return false, nil
		}
		switch x := node.(type) {
		case *sqlparser.SQLVal:
			if x.Type == sqlparser.ValArg {
				err = errors.New("placeholders (?, :name) are not allowed in a constraint")
			}
		case sqlparser.ListArg:
			err = errors.New("placeholders (::name) are not allowed in a constraint")
		case *sqlparser.Subquery, *sqlparser.ExistsExpr:
			err = rules.NotOneRow("subqueries are not allowed in a constraint (it must be over one row)")
		case *sqlparser.FuncExpr:
			if x.IsAggregate() {
				err = rules.NotOneRow(fmt.Sprintf("aggregate %s is not allowed in a constraint (it must be over one row)", strings.ToUpper(x.Name.String())))
			}
		case *sqlparser.GroupConcatExpr:
			err = errors.New("aggregate GROUP_CONCAT is not allowed in a constraint")
		case *sqlparser.ValuesFuncExpr, *sqlparser.Default:
			err = fmt.Errorf("%s is not allowed in a constraint", sqlparser.String(node))
		}
		return err == nil, nil
	}, e)
	return err
}
