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
	row, err := ParseConstraint("accounts.balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	if rows, _ := row.ReferencedRows(s, seeded); rows != nil {
		t.Errorf("a row constraint refers to rows %v", rows)
	}
}
