package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// A Reference is a referential constraint ∀ r ∈ Table : r.Column IS NULL
// ∨ ∃ q ∈ RefTable : q.RefColumn = r.Column, written "T.c IN (SELECT k
// FROM U)" or "EXISTS (SELECT 1 FROM U WHERE U.k = T.c)", where RefColumn
// is a key of RefTable the schema declares (see docs/design.md §2,
// foreign keys). Table, Column, RefTable and RefColumn are lower case.
type Reference struct {
	Text string
	sqlir.Reference
	// Nullable: the IN form over a column the schema does not declare
	// NOT NULL. NULL IN (SELECT k FROM U) is NULL (the condition holds)
	// while U has a row and FALSE when U has none, so a row with a NULL
	// column breaks the condition exactly when U is empty: the model
	// then tracks whether U has a row.
	Nullable bool
}

// Tables returns the referencing and the referenced table.
func (r *Reference) Tables() []string { return []string{r.Table, r.RefTable} }

// String returns the condition as written.
func (r *Reference) String() string { return r.Text }

// Label returns the condition as written.
func (r *Reference) Label() string { return r.Text }

// parseReference reads text as a Reference over table (when its column is
// bare) and checks it against the schema: the referenced column must be a
// one-column key of the referenced table, and the schema must declare no
// foreign key on either table (the engine's checks and referential
// actions are not modelled). Errors match sqlparse.ErrNotOneRow and say
// why the condition is not checked.
func parseReference(text, table string, schema *sqlir.Schema) (*Reference, error) {
	ref, err := sqlparse.ParseReference(text, table)
	if err != nil {
		return nil, err
	}
	low := sqlir.Reference{Table: strings.ToLower(ref.Table), Column: strings.ToLower(ref.Column),
		RefTable: strings.ToLower(ref.RefTable), RefColumn: strings.ToLower(ref.RefColumn), NullBreaks: ref.NullBreaks}
	u := schemaTable(schema, low.RefTable)
	if u == nil || !slices.ContainsFunc(u.Keys, func(k []string) bool {
		return len(k) == 1 && strings.EqualFold(k[0], low.RefColumn)
	}) {
		return nil, notChecked("the reference to %s.%s is checked only when --schema declares %s a PRIMARY KEY or UNIQUE column of %s", ref.RefTable, ref.RefColumn, ref.RefColumn, ref.RefTable)
	}
	for _, n := range []string{low.Table, low.RefTable} {
		if t := schemaTable(schema, n); t != nil && len(t.ForeignKeys) > 0 {
			fk := t.ForeignKeys[0]
			return nil, notChecked("the schema declares a foreign key of %s (%s) REFERENCES %s: the engine's foreign-key checks and referential actions are not modelled", t.Name, strings.Join(fk.Columns, ", "), fk.RefTable)
		}
	}
	t := schemaTable(schema, low.Table)
	if t != nil && !slices.ContainsFunc(t.Columns, func(c sqlir.Column) bool { return strings.EqualFold(c.Name, low.Column) }) {
		return nil, fmt.Errorf("constraint %q: table %s has no column %s", text, t.Name, ref.Column)
	}
	nullable := !low.NullBreaks && (t == nil || !slices.ContainsFunc(t.Columns, func(c sqlir.Column) bool { return strings.EqualFold(c.Name, low.Column) && c.NotNull }))
	return &Reference{Text: text, Reference: low, Nullable: nullable}, nil
}

// notChecked is an error matching sqlparse.ErrNotOneRow with reason why.
func notChecked(format string, args ...any) error {
	return sqlparse.NotOneRow(fmt.Sprintf(format, args...))
}
