package dbmodel_test

import (
	"slices"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlparse"
)

// TestResultWatched: the lowering result names the watched row, its
// columns and its existence flag, and the bookkeeping variables, so a
// trace needs no naming convention; only writes to the property's table
// count as writes of the model.
func TestResultWatched(t *testing.T) {
	c, err := spec.ParseRowCheck("accounts.balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	p := build(t, sqlparse.MySQL, []string{"id", "amt"}, []step{
		{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
		{guard: "bal >= amt"},
		{sql: "UPDATE accounts SET balance = balance - ? WHERE id = ?", args: []string{"amt", "id"}},
		{sql: "UPDATE audit SET n = n + 1 WHERE id = ?", args: []string{"id"}},
	})
	low, err := dbmodel.Lower(p, c, dbmodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if low.Writes != 1 {
		t.Errorf("%d writes, want 1 (the UPDATE of audit is not on the watched table)", low.Writes)
	}
	if len(low.Watched) != 1 {
		t.Fatalf("watched %+v, want one row", low.Watched)
	}
	w := low.Watched[0]
	if w.Symbol != "r" || w.Table != "accounts" || w.Exists == nil {
		t.Errorf("watched %+v, want r of accounts with an existence flag", w)
	}
	var cols []string
	for _, v := range w.Cols {
		if v.Kind != ir.Column || v.Row != w.Symbol {
			t.Errorf("watched column %s: kind %v, row %q", v.Name, v.Kind, v.Row)
		}
		cols = append(cols, v.Col)
	}
	if !slices.Equal(cols, []string{"balance", "id"}) {
		t.Errorf("watched columns %q, want balance and id", cols)
	}
	var ghosts []string
	for _, v := range low.Ghosts {
		ghosts = append(ghosts, v.Name)
	}
	for _, want := range []string{w.Exists.Name, "s1.$exists", "s1.$live"} {
		if !slices.Contains(ghosts, want) {
			t.Errorf("ghosts %q lack %s", ghosts, want)
		}
	}
	if !slices.Contains(low.Program.Vars, w.Exists) {
		t.Errorf("the existence flag %s is not a variable of the lowered program", w.Exists.Name)
	}
}
