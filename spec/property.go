package spec

import (
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// A Property is a condition on the database that every committed state
// must keep, for every entry point and every input.
type Property interface {
	// Tables returns the tables whose writes may break the property, as
	// the property spells them.
	Tables() []string
	// String returns the property as written.
	String() string
	// Label names the property in results: the name and text of a named
	// one (a schema CHECK), else its text.
	Label() string
}

// A RowCheck is a row-level invariant ∀ r ∈ Table : Expr(r): a
// --constraint, or a CHECK constraint of the schema.
type RowCheck struct {
	// Name is the CHECK constraint's name; "" for --constraint.
	Name string
	// Text is the condition as written; Table the table it is over.
	Text, Table string
	// Expr is the condition, over the columns of Table, with SQL's NULL
	// semantics made explicit (see nullSafe); Source is the condition as
	// written when that changed it (nil otherwise).
	Expr, Source sqlir.Expr
	// casts are the casts the condition applies (checkCasts).
	casts []sqlir.ColumnCast
}

// Written returns the condition as written.
func (c *RowCheck) Written() sqlir.Expr {
	if c.Source != nil {
		return c.Source
	}
	return c.Expr
}

// Tables returns the row check's table.
func (c *RowCheck) Tables() []string { return []string{c.Table} }

// String returns the condition as written.
func (c *RowCheck) String() string { return c.Text }

// Label returns "name: text" for a named check, else the text.
func (c *RowCheck) Label() string {
	if c.Name != "" {
		return c.Name + ": " + c.Text
	}
	return c.Text
}

// Is reports whether schema CHECK ck is c itself.
func (c *RowCheck) Is(ck sqlir.Constraint) bool {
	return strings.EqualFold(ck.Table, c.Table) && ck.Name == c.Name && ck.Text == c.Text
}

// rowCheck returns the property a parsed condition or a schema CHECK
// states.
func rowCheck(c *sqlir.Constraint) *RowCheck {
	return &RowCheck{Name: c.Name, Text: c.Text, Table: c.Table, Expr: c.Expr, casts: c.Casts}
}

// FromSchema returns the properties the schema's CHECK constraints state,
// one RowCheck per CHECK, tables in name order: the one rule by which a
// schema CHECK becomes a property.
func FromSchema(schema *sqlir.Schema) []Property {
	if schema == nil {
		return nil
	}
	var out []Property
	for _, t := range tablesOf(schema) {
		for i := range t.Checks {
			c := rowCheck(&t.Checks[i])
			c.nullSafe(schema)
			out = append(out, c)
		}
	}
	return out
}

// tablesOf returns the schema's tables in name order.
func tablesOf(schema *sqlir.Schema) []*sqlir.Table {
	var out []*sqlir.Table
	for _, n := range slices.Sorted(maps.Keys(schema.Tables)) {
		out = append(out, schema.Tables[n])
	}
	return out
}

// ParseRowCheck parses a row check: a SQL condition over one table's
// columns, qualified (accounts.balance >= 0) or, with table given, bare.
func ParseRowCheck(text, table string) (*RowCheck, error) {
	c, err := sqlparse.ParseConstraint(text, table)
	if err != nil {
		return nil, err
	}
	return rowCheck(c), nil
}
