package spec_test

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// TestResolveReference: a reference to a declared key, written with IN or
// EXISTS, becomes a Reference; any other condition with a subquery is an
// Unsupported property whose reason says what is missing or why.
func TestResolveReference(t *testing.T) {
	const (
		plain = `CREATE TABLE owners (id BIGINT PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name TEXT NOT NULL);
CREATE TABLE doctors (id BIGINT PRIMARY KEY, shift_id BIGINT NOT NULL, on_call INT NOT NULL);`
		nullable = `CREATE TABLE owners (id BIGINT PRIMARY KEY);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT);`
		declared = `CREATE TABLE owners (id BIGINT PRIMARY KEY);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT REFERENCES owners (id));`
		// The key over a NOT NULL column is the condition (Declared);
		// another key is not.
		declaredNotNull = `CREATE TABLE owners (id BIGINT PRIMARY KEY);
CREATE TABLE vets (id BIGINT PRIMARY KEY);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, vet_id BIGINT NOT NULL REFERENCES vets,
  FOREIGN KEY (owner_id) REFERENCES owners);`
	)
	prog := &program{tables: []string{"owners", "pets", "doctors"}}
	tests := []struct {
		name, ddl, text string
		want            *sqlir.Reference // nil: Unsupported
		reason          string
	}{
		{"IN", plain, "pets.owner_id IN (SELECT id FROM owners)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id"}, ""},
		{"IN, qualified and aliased", plain, "Pets.Owner_ID IN (SELECT o.id FROM owners o)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id"}, ""},
		{"EXISTS", plain, "EXISTS (SELECT 1 FROM owners WHERE owners.id = pets.owner_id)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id", NullBreaks: true}, ""},
		{"EXISTS, aliased, the other way round", plain, "EXISTS (SELECT * FROM owners o WHERE pets.owner_id = o.id)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id", NullBreaks: true}, ""},
		{"a UNIQUE column", plain, "pets.owner_id IN (SELECT email FROM owners)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "email"}, ""},
		// NULL IN (SELECT …) is FALSE over an empty table: the IN form
		// over a nullable column is Nullable (the model tracks whether
		// owners has a row); the EXISTS form takes NULL as breaking.
		{"IN over a nullable column", nullable, "pets.owner_id IN (SELECT id FROM owners)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id"}, ""},
		{"EXISTS over a nullable column", nullable, "EXISTS (SELECT 1 FROM owners WHERE owners.id = pets.owner_id)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id", NullBreaks: true}, ""},
		{"not a key", plain, "pets.owner_id IN (SELECT name FROM owners)", nil,
			"checked only when --schema declares name a PRIMARY KEY or UNIQUE column of owners"},
		{"no schema", "", "pets.owner_id IN (SELECT id FROM owners)", nil,
			"checked only when --schema declares id a PRIMARY KEY or UNIQUE column of owners"},
		{"a declared foreign key over a nullable column", declared, "pets.owner_id IN (SELECT id FROM owners)", nil,
			"the schema declares a foreign key of pets (owner_id) REFERENCES owners, which accepts a NULL owner_id, and NULL IN (SELECT id FROM owners) is FALSE"},
		{"a declared foreign key over a nullable column, EXISTS form", declared, "EXISTS (SELECT 1 FROM owners WHERE owners.id = pets.owner_id)", nil,
			"which accepts a NULL owner_id, and NULL breaks the EXISTS form"},
		{"the declared foreign key", declaredNotNull, "pets.owner_id IN (SELECT id FROM owners)",
			&sqlir.Reference{Table: "pets", Column: "owner_id", RefTable: "owners", RefColumn: "id"}, ""},
		{"another declared foreign key", declaredNotNull, "pets.vet_id IN (SELECT id FROM owners)", nil,
			"the schema declares a foreign key of pets (vet_id) REFERENCES vets"},
		{"a subquery over the constrained table", plain,
			"doctors.on_call = 1 OR EXISTS (SELECT 1 FROM doctors o WHERE o.shift_id = doctors.shift_id AND o.on_call = 1)", nil,
			"the subquery reads doctors, the constrained table itself"},
		{"a filtered subquery", plain, "pets.owner_id IN (SELECT id FROM owners WHERE name <> '')", nil,
			"only T.c IN (SELECT k FROM U) and EXISTS (SELECT 1 FROM U WHERE U.k = T.c)"},
		{"part of a condition", plain, "pets.owner_id IS NULL OR pets.owner_id IN (SELECT id FROM owners)", nil,
			"as the whole condition"},
		{"NOT IN", plain, "pets.owner_id NOT IN (SELECT id FROM owners)", nil, "subqueries are not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sch *sqlir.Schema
			if tt.ddl != "" {
				var err error
				if sch, err = schema.Parse(tt.ddl); err != nil {
					t.Fatal(err)
				}
			}
			props, err := spec.Resolve([]string{tt.text}, "", sch, prog)
			if err != nil {
				t.Fatal(err)
			}
			switch p := props[0].(type) {
			case *spec.Reference:
				if tt.want == nil || p.Reference != *tt.want || p.Text != tt.text {
					t.Fatalf("reference %+v, want %+v", p.Reference, tt.want)
				}
				if want := strings.HasPrefix(tt.text, "pets.owner_id IN") && tt.ddl == nullable; p.Nullable != want {
					t.Errorf("Nullable = %v, want %v", p.Nullable, want)
				}
				if want := tt.ddl == declaredNotNull; (p.Declared != nil) != want || want && (p.Declared.RefTable != "owners" || p.Declared.Inline) {
					t.Errorf("Declared = %+v, want the table's FOREIGN KEY (owner_id) REFERENCES owners: %v", p.Declared, want)
				}
				if got := p.Tables(); len(got) != 2 || got[0] != tt.want.Table || got[1] != tt.want.RefTable {
					t.Errorf("tables %v", got)
				}
			case *spec.Unsupported:
				if tt.want != nil || !strings.Contains(p.Reason, tt.reason) {
					t.Fatalf("unsupported: %s, want %v / reason containing %q", p.Reason, tt.want, tt.reason)
				}
			default:
				t.Fatalf("property %T", p)
			}
		})
	}
}
