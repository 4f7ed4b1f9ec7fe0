package sqlparse

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
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
// wrap a *ParseError whose Query is text and whose Offset points into it.
func ParseConstraint(text string, defaultTable string) (c *sqlir.Constraint, err error) {
	defer recoverParser(&err)
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
	if off := tk.Position; off <= len(q) && !restIsEmpty(q[off:]) {
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

	// The table: every qualifier must agree.
	table := ""
	var terr error
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		c, ok := node.(*sqlparser.ColName)
		if !ok || terr != nil {
			return terr == nil, nil
		}
		q := c.Qualifier.Name.String()
		switch {
		case q == "":
		case table == "":
			table = q
		case !strings.EqualFold(table, q):
			terr = fmt.Errorf("constraint %q names two tables, %s and %s: a constraint is over one table", text, table, q)
		}
		return true, nil
	}, where)
	if terr != nil {
		return nil, terr
	}
	switch {
	case table == "" && defaultTable == "":
		return nil, fmt.Errorf("constraint %q names no table: write accounts.balance or pass --table", text)
	case table == "":
		table = defaultTable
	case defaultTable != "" && !strings.EqualFold(table, defaultTable):
		return nil, fmt.Errorf("constraint %q is over table %s, not %s", text, table, defaultTable)
	}

	tr := &translator{dialect: MySQL, params: map[string]int{}, scope: map[string]string{}}
	e := tr.expr(where)
	if !isCondition(e) {
		return nil, fmt.Errorf("constraint %q is not a condition: it computes a value; compare it, e.g. %s >= 0", text, strings.TrimSpace(text))
	}
	return &sqlir.Constraint{Text: text, Table: table, Expr: e}, nil
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
			err = errors.New("subqueries are not allowed in a constraint (it must be over one row)")
		case *sqlparser.FuncExpr:
			if x.IsAggregate() {
				err = fmt.Errorf("aggregate %s is not allowed in a constraint (it must be over one row)", strings.ToUpper(x.Name.String()))
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

// isCondition rejects expressions that are obviously values, not truth
// values: literals other than TRUE/FALSE and arithmetic.
func isCondition(e sqlir.Expr) bool {
	switch x := e.(type) {
	case *sqlir.Num, *sqlir.Str, *sqlir.Null, *sqlir.Param:
		return false
	case *sqlir.Binary:
		switch x.Op {
		case "+", "-", "*", "/", "%", "DIV":
			return false
		}
	case *sqlir.Unary:
		return x.Op == "NOT"
	}
	return true
}
