package instrument

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// ReferencedSlot is the symbol of a reference's watched key slot of the
// referenced table.
const ReferencedSlot = "p"

// reference instruments T.c IN (SELECT k FROM U), k a key of U, by a
// watched row r of T and a watched key slot p of U (the row of U with
// key p.k, if any): on entry r.c = p.k (c not NULL) implies p exists; the
// violation is r exists, r.c is not NULL and equals p.k, and p does not
// exist, or, for the EXISTS form, r exists with a NULL c, or, for the IN
// form over a nullable c, r exists with a NULL c and U has no row (the
// slot's Any; docs/design.md §2, foreign keys).
type reference struct {
	ref *spec.Reference
}

func (f *reference) Watched() []Watch {
	return []Watch{{Table: f.ref.Table, Symbol: WatchedRow}, {Table: f.ref.RefTable, Symbol: ReferencedSlot, Slot: true, Any: f.ref.Nullable}}
}

// Conditions: the referencing column (and whether it is NULL) of T, the
// key of U.
func (f *reference) Conditions(table string) []sqlir.Expr {
	switch {
	case strings.EqualFold(table, f.ref.Table):
		return []sqlir.Expr{&sqlir.IsNull{X: &sqlir.ColRef{Name: f.ref.Column}}}
	case strings.EqualFold(table, f.ref.RefTable):
		k := &sqlir.ColRef{Name: f.ref.RefColumn}
		return []sqlir.Expr{&sqlir.Binary{Op: sqlir.OpEq, X: k, Y: k}}
	}
	return nil
}

// Invariant: nothing of one row; the pair's is OnEntry.
func (f *reference) Invariant(string) []sqlir.Expr { return nil }

// refers is "r exists and r.c, not NULL, is p's key".
func (f *reference) refers(rows []Row) ir.Expr {
	r, p := rows[0], rows[1]
	return ir.And(r.Exists, ir.Not(f.null(r)), ir.Eq(r.Col(f.ref.Column), p.Col(f.ref.RefColumn)))
}

// null is "r.c is NULL".
func (f *reference) null(r Row) ir.Expr {
	return r.Cond(&sqlir.IsNull{X: &sqlir.ColRef{Name: f.ref.Column}})
}

// nullBreaks is "r exists with a NULL c, and the form is EXISTS".
func (f *reference) nullBreaks(r Row) ir.Expr {
	if !f.ref.NullBreaks {
		return ir.False
	}
	return ir.And(r.Exists, f.null(r))
}

// nullInEmpty is "r exists with a NULL c and U has no row", for the IN
// form over a nullable c: NULL IN (SELECT k FROM U) is FALSE exactly
// when U is empty.
func (f *reference) nullInEmpty(rows []Row) ir.Expr {
	r, p := rows[0], rows[1]
	if p.Any == nil {
		return ir.False
	}
	return ir.And(r.Exists, f.null(r), ir.Not(p.Any))
}

// nullInEmptyFound is nullInEmpty as a violation: the slot stands for a
// row of U on entry if U had one (Row.AnyOnEntry).
func (f *reference) nullInEmptyFound(rows []Row) ir.Expr {
	if rows[1].Any == nil {
		return ir.False
	}
	return ir.And(f.nullInEmpty(rows), rows[1].AnyOnEntry)
}

func (f *reference) OnEntry(rows []Row) []ir.Expr {
	out := []ir.Expr{ir.Implies(f.refers(rows), rows[1].Exists), ir.Not(f.nullBreaks(rows[0]))}
	if p := rows[1]; p.Any != nil {
		// A row of T refers to a row of U, or has a NULL c, which needs
		// a row of U: either way U has one.
		out = append(out, ir.Implies(rows[0].Exists, p.Any))
	}
	return out
}

func (f *reference) Violation(rows []Row) []ir.Expr {
	return []ir.Expr{ir.Or(ir.And(f.refers(rows), ir.Not(rows[1].Exists)), f.nullBreaks(rows[0]), f.nullInEmptyFound(rows))}
}

// Verifies: no CHECK is the property.
func (f *reference) Verifies(string, sqlir.Constraint) bool { return false }

func (f *reference) Text() string { return f.ref.Text }
