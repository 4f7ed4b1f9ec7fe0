package witness

import (
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// TestReferenceConstraint: a reference ("T.c IN (SELECT k FROM U)") is a
// constraint on T's rows checked with its text as written, and a run
// seeded from a counterexample gets the row of U each seeded row of T
// refers to (once; NULL refers to none; a seeded U row is kept).
func TestReferenceConstraint(t *testing.T) {
	c, err := ParseConstraint("pets.owner_id IN (SELECT id FROM owners)", "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Table != "pets" || c.Ref == nil || c.Ref.RefTable != "owners" {
		t.Fatalf("constraint %+v", c)
	}
	if got, want := c.ViolationQuery(), "SELECT * FROM pets WHERE NOT (pets.owner_id IN (SELECT id FROM owners))"; got != want {
		t.Errorf("violation query %q, want %q", got, want)
	}
	s := &Schema{Tables: map[string]*sqlir.Table{
		"owners": {Name: "owners", Keys: [][]string{{"id"}}, Columns: []sqlir.Column{{Name: "id", Type: "bigint"}, {Name: "name", Type: "text", NotNull: true}}},
		"pets":   {Name: "pets", Keys: [][]string{{"id"}}, Columns: []sqlir.Column{{Name: "id", Type: "bigint"}, {Name: "owner_id", Type: "bigint"}}},
	}}
	seeded := []Row{
		{Table: "pets", Values: map[string]string{"id": "1", "owner_id": "7"}},
		{Table: "pets", Values: map[string]string{"id": "2", "owner_id": "7"}},
		{Table: "pets", Values: map[string]string{"id": "3", "owner_id": "NULL"}},
		{Table: "pets", Values: map[string]string{"id": "4", "owner_id": "5"}},
		{Table: "owners", Values: map[string]string{"id": "5", "name": "Jean"}},
	}
	rows, notes := c.ReferencedRows(s, seeded)
	want := []Row{{Table: "owners", Values: map[string]string{"id": "7", "name": ""}}}
	if !reflect.DeepEqual(rows, want) || len(notes) != 1 {
		t.Errorf("ReferencedRows = %v %q, want %v and one note", rows, notes, want)
	}
	// A NULL-owner pet needs some owner (NULL IN an empty owners is
	// FALSE): one is seeded with a key no seeded row holds, unless an
	// owner is seeded; the EXISTS form, broken by NULL, seeds none.
	stray := []Row{{Table: "pets", Values: map[string]string{"id": "3", "owner_id": "NULL"}}, {Table: "pets", Values: map[string]string{"id": "9", "owner_id": "NULL"}}}
	rows, notes = c.ReferencedRows(s, stray)
	want = []Row{{Table: "owners", Values: map[string]string{"id": "10", "name": ""}}}
	if !reflect.DeepEqual(rows, want) || len(notes) != 1 {
		t.Errorf("ReferencedRows of NULL-owner pets = %v %q, want %v and one note", rows, notes, want)
	}
	if rows, _ := c.ReferencedRows(s, append(stray, Row{Table: "pets", Values: map[string]string{"id": "4", "owner_id": "7"}})); len(rows) != 1 || rows[0].Values["id"] != "7" {
		t.Errorf("ReferencedRows of NULL-owner pets beside one of owner 7 = %v, want owner 7 only", rows)
	}
	exists, err := ParseConstraint("EXISTS (SELECT 1 FROM owners WHERE owners.id = pets.owner_id)", "")
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := exists.ReferencedRows(s, stray[:1]); len(rows) != 0 {
		t.Errorf("EXISTS form: ReferencedRows of a NULL-owner pet = %v, want none", rows)
	}
	row, err := ParseConstraint("accounts.balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := row.ReferencedRows(s, seeded); rows != nil {
		t.Errorf("a row constraint refers to rows %v", rows)
	}
}
