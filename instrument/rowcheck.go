package instrument

import (
	"reflect"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// WatchedRow is the symbol of a row check's watched row.
const WatchedRow = "r"

// rowCheck instruments ∀ r ∈ T : ψ(r) by one watched row r of T,
// arbitrary and satisfying ψ on entry (skolemised ∀: if some row can be
// made to break ψ, some choice of r is), and the check r.$exists ∧ ¬ψ(r)
// in the committed state.
type rowCheck struct {
	c *spec.RowCheck
}

func (rc *rowCheck) Watched() []Watch {
	return []Watch{{Table: rc.c.Table, Symbol: WatchedRow}}
}

func (rc *rowCheck) Conditions(table string) []sqlir.Expr {
	if !strings.EqualFold(table, rc.c.Table) {
		return nil
	}
	return []sqlir.Expr{rc.c.Expr}
}

func (rc *rowCheck) Invariant(table string) []sqlir.Expr { return rc.Conditions(table) }

func (rc *rowCheck) OnEntry([]Row) []ir.Expr { return nil }

func (rc *rowCheck) Violation(rows []Row) []ir.Expr {
	r := rows[0]
	return []ir.Expr{r.Exists, ir.Not(r.Cond(rc.c.Expr))}
}

// Verifies: the row check itself, and, when the row checks are the
// schema's CHECKs (the check has a name), every CHECK of its table: each
// is an invariant the program must keep.
func (rc *rowCheck) Verifies(table string, ck sqlir.Constraint) bool {
	if !strings.EqualFold(table, rc.c.Table) {
		return false
	}
	return rc.c.Name != "" || sameExpr(ck.Expr, rc.c.Written())
}

func (rc *rowCheck) Text() string { return rc.c.Text }

// sameExpr reports whether a and b are the same expression, ignoring
// the qualification and case of column names.
func sameExpr(a, b sqlir.Expr) bool {
	norm := func(e sqlir.Expr) sqlir.Expr {
		return sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
			if c, ok := x.(*sqlir.ColRef); ok {
				return &sqlir.ColRef{Name: strings.ToLower(c.Name)}, true
			}
			return nil, false
		})
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
