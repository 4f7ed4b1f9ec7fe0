package pipeline

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/report"
)

// TestDatabaseCheckRejects: an UNSAFE whose constraint the schema also
// declares as a CHECK stays UNSAFE, and says which CHECK of the database
// rejects the violating statement (by the name PostgreSQL gives an
// unnamed one); a constraint the schema does not declare says nothing.
// The names and the rejection are checked on a real PostgreSQL server.
func TestDatabaseCheckRejects(t *testing.T) {
	src := testdataDir(t, "src")
	schema := testdataDir(t, "wallet.sql")
	tests := []struct {
		constraints []string
		want        map[string]string // "entry constraint" of each UNSAFE → CHECK name ("" = none)
	}{
		{[]string{"wallets.balance >= 0"}, map[string]string{"Debit wallets.balance >= 0": "wallets_balance_check"}},
		{nil, map[string]string{"Debit wallets_check1: balance >= 0": "wallets_balance_check", "Release hold_nonneg: hold >= 0": "hold_nonneg"}},
		{[]string{"wallets.balance >= 1"}, map[string]string{"Debit wallets.balance >= 1": ""}},
	}
	for _, tt := range tests {
		rep, err := runShared(context.Background(), Config{Dir: src, Patterns: []string{"./wallet"}, Constraints: tt.constraints, Schema: schema, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, r := range rep.Results {
			if r.Verdict != report.Unsafe {
				if r.DatabaseCheck != nil {
					t.Errorf("%s %s: %s result with a database check", r.Entry, r.Constraint, r.Verdict)
				}
				continue
			}
			key := strings.TrimPrefix(r.Entry, "example.com/pl/wallet.") + " " + r.Constraint
			got[key] = ""
			if r.DatabaseCheck != nil {
				got[key] = r.DatabaseCheck.Name
				text := unsafeText(t, rep, r)
				if !strings.Contains(text, "database:  The database's CHECK "+r.DatabaseCheck.Name+" (") {
					t.Errorf("%s: the text does not name the CHECK:\n%s", key, text)
				}
				// One name for a CHECK in a report, the engine's (adv18:
				// members_check1 in the assumptions, members_points_check
				// on the database line), and the result line says the
				// statement fails, with PostgreSQL's SQLSTATE.
				if _, body, _ := strings.Cut(text, "\n"); strings.Contains(body, "_check1") {
					t.Errorf("%s: the text names a CHECK by the loader's name:\n%s", key, text)
				}
				if line, _, _ := strings.Cut(text, "\n"); !strings.Contains(line, "(the violating statement fails on the database: CHECK "+r.DatabaseCheck.Name+" rejects it, SQLSTATE 23514)") {
					t.Errorf("%s: the result line does not say the statement fails with 23514:\n%s", key, text)
				}
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("-c %q: UNSAFE results %v, want %v", tt.constraints, got, tt.want)
		}
		for k, name := range tt.want {
			if g, ok := got[k]; !ok || g != name {
				t.Errorf("-c %q: %s: CHECK %q (found %v), want %q", tt.constraints, k, g, ok, name)
			}
		}
	}
	rejectedOnPostgres(t, schema, map[string]string{
		"UPDATE wallets SET balance = balance - 1 WHERE id = 1": "wallets_balance_check",
		"UPDATE wallets SET hold = hold - 1 WHERE id = 1":       "hold_nonneg",
	})
}

// unsafeText is the text report of r alone.
func unsafeText(t *testing.T, rep *report.Report, r *report.Result) string {
	var b strings.Builder
	one := &report.Report{Results: []*report.Result{r}, Stats: rep.Stats}
	if err := report.WriteText(&b, one, report.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// rejectedOnPostgres runs each statement on a row of balance 0 and hold
// 0 of schema's wallets and checks that PostgreSQL rejects it naming the
// CHECK given.
func rejectedOnPostgres(t *testing.T, schema string, stmts map[string]string) {
	ddl, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	e := groundtruth.StartForTest(t, groundtruth.Postgres)
	ctx := context.Background()
	db, _, err := e.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := groundtruth.ExecAll(ctx, db, string(ddl), "INSERT INTO wallets (id, balance, hold) VALUES (1, 0, 0)"); err != nil {
		t.Fatal(err)
	}
	for stmt, name := range stmts {
		_, err := db.ExecContext(ctx, stmt)
		if err == nil || !strings.Contains(err.Error(), `"`+name+`"`) || !strings.Contains(err.Error(), "SQLSTATE 23514") {
			t.Errorf("%s on PostgreSQL: error %v, want a violation of CHECK %s, SQLSTATE 23514", stmt, err, name)
		}
	}
}
