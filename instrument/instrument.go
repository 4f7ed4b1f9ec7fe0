package instrument

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// A Watch is a watched row: a row symbol of Table (as the property spells
// it) that the model tracks through every statement, arbitrary on entry.
type Watch struct {
	Table, Symbol string
	// Slot: the row stands for a key value of Table rather than for a
	// row — the row with that key if there is one — so it may not exist
	// on entry, an INSERT of its key makes it exist, and a row read with
	// its key is it (docs/design.md §2, foreign keys).
	Slot bool
	// Any (with Slot): the model also tracks whether Table has a row at
	// all (Row.Any) — a referencing NULL breaks the IN form of a
	// reference exactly when the referenced table is empty.
	Any bool
}

// A Row is a watched row in a committed state, as the model gives it.
type Row struct {
	Watch
	// Exists is the row's existence flag.
	Exists ir.Expr
	// Any, for a Watch with Any, is "the table has a row" (nil
	// otherwise). AnyOnEntry is "if the table had a row on entry, the
	// slot was one": the slot's key is free, so a run that leaves the
	// table empty may be read with the slot one of its initial rows (a
	// counterexample then lists the row it deletes).
	Any, AnyOnEntry ir.Expr
	// Cond translates a SQL condition over the row's columns.
	Cond func(sqlir.Expr) ir.Expr
	// Col returns the variable of a column of the row the property's
	// conditions name (lower case).
	Col func(string) ir.Expr
}

// An Instrumentation is a property as the row model checks it.
type Instrumentation interface {
	// Watched returns the watched rows, at most one per table.
	Watched() []Watch
	// Conditions returns the property's conditions over table's rows:
	// the model tracks their columns, and uses as numbers the columns
	// they compute or order with.
	Conditions(table string) []sqlir.Expr
	// Invariant returns what holds of every row of table in the initial
	// database (and so of every row a SELECT reads before the program
	// writes untracked rows).
	Invariant(table string) []sqlir.Expr
	// OnEntry returns what holds of the watched rows together on entry,
	// given in the order of Watched (beyond Invariant of each).
	OnEntry(rows []Row) []ir.Expr
	// Violation returns the conjuncts of "the committed state breaks the
	// property", given the watched rows in the order of Watched.
	Violation(rows []Row) []ir.Expr
	// Verifies reports whether the schema's CHECK ck on table is
	// verified rather than enforced: the question is then whether the
	// program ever writes a row that breaks it, so the model must not
	// let the database refuse the write.
	Verifies(table string, ck sqlir.Constraint) bool
	// Text is the property as written, for the model's notes.
	Text() string
}

// For returns the instrumentation of property p.
func For(p spec.Property) (Instrumentation, error) {
	switch p := p.(type) {
	case *spec.RowCheck:
		return &rowCheck{c: p}, nil
	case *spec.Reference:
		return &reference{ref: p}, nil
	}
	return nil, fmt.Errorf("instrument: property %q of kind %T is not supported by the row model", p.String(), p)
}
