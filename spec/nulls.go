package spec

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// A row check holds as a CHECK constraint does: unless its condition is
// FALSE. A comparison with a NULL operand is neither TRUE nor FALSE, so
// `withdrawn <= daily_limit` holds of a row whose daily_limit is NULL
// (an optional limit). The model compares values and does not see NULLs
// (see dbmodel's nulls.go), so a condition over columns the schema lets
// be NULL is rewritten into "not FALSE" with the NULL tests explicit:
// each comparison c over nullable columns n1…nk becomes
// (n1 IS NULL OR … OR c), and NOT, AND and OR follow SQL's three-valued
// logic. Columns no schema declares are taken as NOT NULL, as before.

// nullSafe sets c.Expr to "c's condition is not FALSE" over the nullable
// columns of its table in schema, keeping the condition as written in
// c.Source; it leaves c alone when no column it compares may be NULL.
func (c *RowCheck) nullSafe(schema *sqlir.Schema) {
	if schema == nil {
		return
	}
	t := schema.Tables[strings.ToLower(c.Table)]
	if t == nil {
		return
	}
	nullable := func(col string) bool {
		for _, tc := range t.Columns {
			if strings.EqualFold(tc.Name, col) {
				return !tc.NotNull // (the parser marks PRIMARY KEY columns NOT NULL)
			}
		}
		return false
	}
	if len(nullableCols(c.Expr, nullable)) == 0 {
		return
	}
	c.Source = c.Expr
	c.Expr = notFalse(c.Expr, nullable)
}

// notFalse returns a two-valued condition that holds exactly where e is
// not FALSE; notTrue where it is not TRUE.
func notFalse(e sqlir.Expr, nullable func(string) bool) sqlir.Expr {
	switch x := e.(type) {
	case *sqlir.Binary:
		switch x.Op {
		case sqlir.OpAnd:
			return &sqlir.Binary{Op: sqlir.OpAnd, X: notFalse(x.X, nullable), Y: notFalse(x.Y, nullable)}
		case sqlir.OpOr:
			return &sqlir.Binary{Op: sqlir.OpOr, X: notFalse(x.X, nullable), Y: notFalse(x.Y, nullable)}
		}
	case *sqlir.Unary:
		if x.Op == sqlir.OpNot {
			return notTrue(x.X, nullable)
		}
	}
	return orNull(e, e, nullable)
}

func notTrue(e sqlir.Expr, nullable func(string) bool) sqlir.Expr {
	switch x := e.(type) {
	case *sqlir.Binary:
		switch x.Op {
		case sqlir.OpAnd:
			return &sqlir.Binary{Op: sqlir.OpOr, X: notTrue(x.X, nullable), Y: notTrue(x.Y, nullable)}
		case sqlir.OpOr:
			return &sqlir.Binary{Op: sqlir.OpAnd, X: notTrue(x.X, nullable), Y: notTrue(x.Y, nullable)}
		}
	case *sqlir.Unary:
		if x.Op == sqlir.OpNot {
			return notFalse(x.X, nullable)
		}
	}
	return orNull(e, &sqlir.Unary{Op: sqlir.OpNot, X: e}, nullable)
}

// orNull returns (n1 IS NULL OR … OR then) over the nullable columns of
// the atom e (then itself when there are none): an atom other than a
// connective is unknown exactly when one of its columns is NULL (IS NULL
// tests are never unknown).
func orNull(e, then sqlir.Expr, nullable func(string) bool) sqlir.Expr {
	if _, ok := e.(*sqlir.IsNull); ok {
		return then
	}
	out := then
	cols := nullableCols(e, nullable)
	for i := len(cols) - 1; i >= 0; i-- {
		out = &sqlir.Binary{Op: sqlir.OpOr, X: &sqlir.IsNull{X: &sqlir.ColRef{Name: cols[i]}}, Y: out}
	}
	return out
}

// nullableCols returns the nullable columns e compares or computes with
// (not those under an IS NULL test), each once, in order.
func nullableCols(e sqlir.Expr, nullable func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(sqlir.Expr)
	walk = func(e sqlir.Expr) {
		switch x := e.(type) {
		case *sqlir.ColRef:
			k := strings.ToLower(x.Name)
			if nullable(x.Name) && !seen[k] {
				seen[k] = true
				out = append(out, x.Name)
			}
		case *sqlir.Binary:
			walk(x.X)
			walk(x.Y)
		case *sqlir.Unary:
			walk(x.X)
		}
	}
	walk(e)
	return out
}
