package rules

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// ConstraintTable resolves the table of a constraint whose column
// qualifiers (as written, "" for none) are quals: every qualifier must
// name the same table, and defaultTable (when given) must agree with it;
// without qualifiers the table is defaultTable.
func ConstraintTable(text string, quals []string, defaultTable string) (string, error) {
	table := ""
	for _, q := range quals {
		switch {
		case q == "":
		case table == "":
			table = q
		case !strings.EqualFold(table, q):
			return "", fmt.Errorf("constraint %q names two tables, %s and %s: a constraint is over one table", text, table, q)
		}
	}
	switch {
	case table == "" && defaultTable == "":
		return "", fmt.Errorf("constraint %q names no table: write accounts.balance or pass --table", text)
	case table == "":
		table = defaultTable
	case defaultTable != "" && !strings.EqualFold(table, defaultTable):
		return "", fmt.Errorf("constraint %q is over table %s, not %s", text, table, defaultTable)
	}
	return table, nil
}

// NewConstraint is the constraint text over table with the translated
// condition e; an e that computes a value rather than a truth value is an
// error.
func NewConstraint(text, table string, e sqlir.Expr) (*sqlir.Constraint, error) {
	if !isCondition(e) {
		return nil, fmt.Errorf("constraint %q is not a condition: it computes a value; compare it, e.g. %s >= 0", text, strings.TrimSpace(text))
	}
	return &sqlir.Constraint{Text: text, Table: table, Expr: e}, nil
}

// isCondition rejects expressions that are obviously values, not truth
// values: literals other than TRUE/FALSE and arithmetic.
func isCondition(e sqlir.Expr) bool {
	switch x := e.(type) {
	case *sqlir.Num, *sqlir.Str, *sqlir.Null, *sqlir.Param:
		return false
	case *sqlir.Binary:
		return !x.Op.IsArith()
	case *sqlir.Unary:
		return x.Op == sqlir.OpNot
	}
	return true
}
