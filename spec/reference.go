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
	// Declared is the schema's FOREIGN KEY of Table (Column) REFERENCES
	// RefTable (RefColumn) when it declares one and Column NOT NULL: the
	// engine keeps the condition where it enforces the key (pipeline
	// decides that by dialect and storage engine, not the row model).
	Declared *sqlir.ForeignKey
}

// Tables returns the referencing and the referenced table.
func (r *Reference) Tables() []string { return []string{r.Table, r.RefTable} }

// String returns the condition as written.
func (r *Reference) String() string { return r.Text }

// Label returns the condition as written.
func (r *Reference) Label() string { return r.Text }

// parseReference reads text as a Reference over table (when its column is
// bare) and checks it against the schema: the referenced column must be a
// one-column key of the referenced table. A FOREIGN KEY of the schema
// that is the condition, over a NOT NULL column, is Declared (the engine
// may keep it); any other foreign key on either table is not checked (the
// engine's checks and referential actions are not modelled). Errors match
// sqlparse.ErrNotOneRow and say why the condition is not checked.
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
	t := schemaTable(schema, low.Table)
	if t != nil && !slices.ContainsFunc(t.Columns, func(c sqlir.Column) bool { return strings.EqualFold(c.Name, low.Column) }) {
		return nil, fmt.Errorf("constraint %q: table %s has no column %s", text, t.Name, ref.Column)
	}
	notNull := t != nil && slices.ContainsFunc(t.Columns, func(c sqlir.Column) bool { return strings.EqualFold(c.Name, low.Column) && c.NotNull })
	if fk := declaredKey(t, u, low); fk != nil {
		if notNull {
			return &Reference{Text: text, Reference: low, Declared: fk}, nil
		}
		why := "NULL breaks the EXISTS form"
		if !low.NullBreaks {
			why = fmt.Sprintf("NULL IN (SELECT %s FROM %s) is FALSE when %s has no row", ref.RefColumn, ref.RefTable, ref.RefTable)
		}
		return nil, notChecked("the schema declares a foreign key of %s (%s) REFERENCES %s, which accepts a NULL %s, and %s: the engine's foreign-key checks and referential actions are not modelled", t.Name, ref.Column, u.Name, ref.Column, why)
	}
	for _, n := range []string{low.Table, low.RefTable} {
		if t := schemaTable(schema, n); t != nil && len(t.ForeignKeys) > 0 {
			fk := t.ForeignKeys[0]
			return nil, notChecked("the schema declares a foreign key of %s (%s) REFERENCES %s: the engine's foreign-key checks and referential actions are not modelled", t.Name, strings.Join(fk.Columns, ", "), fk.RefTable)
		}
	}
	nullable := !low.NullBreaks && !notNull
	return &Reference{Text: text, Reference: low, Nullable: nullable}, nil
}

// declaredKey returns the FOREIGN KEY of t (ref.Column) REFERENCES u
// (ref.RefColumn) — or REFERENCES u with no column where u's only key is
// ref.RefColumn (the primary key is not told from a UNIQUE one) — that t
// declares, nil if none.
func declaredKey(t, u *sqlir.Table, ref sqlir.Reference) *sqlir.ForeignKey {
	if t == nil || u == nil {
		return nil
	}
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) != 1 || !strings.EqualFold(fk.Columns[0], ref.Column) || !strings.EqualFold(fk.RefTable, ref.RefTable) {
			continue
		}
		cols := fk.RefColumns
		if cols == nil && len(u.Keys) == 1 {
			cols = u.Keys[0]
		}
		if len(cols) == 1 && strings.EqualFold(cols[0], ref.RefColumn) {
			out := fk
			return &out
		}
	}
	return nil
}

// notChecked is an error matching sqlparse.ErrNotOneRow with reason why.
func notChecked(format string, args ...any) error {
	return sqlparse.NotOneRow(fmt.Sprintf(format, args...))
}
