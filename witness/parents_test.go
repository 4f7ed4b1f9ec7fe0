package witness

import (
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// TestParentRows: an INSERT the database refused gets the parent rows its
// foreign keys need, once, with the values it inserted; a parent already
// seeded is not added again.
func TestParentRows(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{
		"accounts": {Name: "accounts", Keys: [][]string{{"id"}}, Columns: []sqlir.Column{
			{Name: "id", Type: "bigserial", AutoIncrement: true}, {Name: "balance", Type: "bigint"}}},
		"transferlog": {Name: "transferLog", Columns: []sqlir.Column{{Name: "fromAccount", Type: "bigint"}, {Name: "toAccount", Type: "bigint"}},
			ForeignKeys: []sqlir.ForeignKey{
				{Columns: []string{"fromAccount"}, RefTable: "accounts", RefColumns: []string{"id"}},
				{Columns: []string{"toAccount"}, RefTable: "accounts"},
			}},
	}}
	seeded := []Row{{Table: "accounts", Values: map[string]string{"id": "3", "balance": "0"}}}
	failed := []Statement{{SQL: `INSERT INTO "transferLog" ("fromAccount", "toAccount") VALUES ($1, $2)`, Args: []string{"3", "2"}}}
	rows, notes := ParentRows(sqlparse.Postgres, s, seeded, append(failed, failed...))
	want := []Row{{Table: "accounts", Values: map[string]string{"id": "2", "balance": "0"}}}
	if !reflect.DeepEqual(rows, want) || len(notes) != 1 {
		t.Errorf("ParentRows = %v %q, want %v and one note", rows, notes, want)
	}
}
