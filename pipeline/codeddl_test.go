package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestTriggerCreatedByCode: a trigger that SQL in the analysed code
// creates (a start-up migration, not in --schema) is seen as if the schema
// declared it: the run warns of it, and Withdraw, whose INSERT into
// withdrawals fires it, is UNKNOWN naming it ("triggers are not
// modelled"). It was invisible: Withdraw was no entry at all and, with
// Migrate's UNKNOWN suppressed, the run was green.
func TestTriggerCreatedByCode(t *testing.T) {
	sch := writeSchema(t, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);\n"+
		"CREATE TABLE withdrawals (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, amount INTEGER NOT NULL);\n")
	for _, schema := range []string{sch, ""} {
		t.Run("schema="+filepath.Base(schema), func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./codetrigger"}, Schema: schema,
				Dialect: "sqlite", Constraints: []string{"accounts.balance >= 0"}, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, r := range rep.Results {
				if strings.HasSuffix(r.Entry, ".Withdraw") {
					found = true
					if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "trigger withdrawals_debit on withdrawals (codetrigger/codetrigger.go:") ||
						!strings.Contains(r.Reason, "triggers are not modelled") {
						t.Errorf("Withdraw: %s (%s), want UNKNOWN naming the trigger and where the code creates it", r.Verdict, r.Reason)
					}
				}
			}
			if !found {
				t.Errorf("no result for Withdraw: %d results", len(rep.Results))
			}
			if !strings.Contains(strings.Join(rep.Warnings, "\n"), "trigger withdrawals_debit on withdrawals is created by SQL at codetrigger/codetrigger.go:") {
				t.Errorf("warnings %q: none names the trigger the code creates", rep.Warnings)
			}
			open := 0
			for _, r := range rep.Results {
				if r.Verdict != report.Safe && r.Suppressed == "" {
					open++
				}
			}
			if open == 0 {
				t.Errorf("the run is green: every result of %d is SAFE or suppressed", len(rep.Results))
			}
		})
	}
}

// TestViewCreatedByCode: a view the code creates is seen as if the schema
// declared it (Fee's write through it is UNKNOWN, writes through views
// not being modelled); with --schema, a write to a relation the schema
// does not declare (audit_log) is named in a warning. Fee was no entry
// and nothing was said.
func TestViewCreatedByCode(t *testing.T) {
	sch := writeSchema(t, "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, deleted_at TIMESTAMP);\n")
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./codeview"}, Schema: sch,
		Dialect: "postgres", Constraints: []string{"accounts.balance >= 0"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rep.Results {
		if strings.HasSuffix(r.Entry, ".Fee") {
			found = true
			if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "write to view live_accounts (codeview/codeview.go:") {
				t.Errorf("Fee: %s (%s), want UNKNOWN naming the view", r.Verdict, r.Reason)
			}
		}
	}
	if !found {
		t.Errorf("no result for Fee: %d results", len(rep.Results))
	}
	warnings := strings.Join(rep.Warnings, "\n")
	for _, w := range []string{"view live_accounts is created by SQL at codeview/codeview.go:", "audit_log", "codeview/codeview.go:37"} {
		if !strings.Contains(warnings, w) {
			t.Errorf("warnings %q lack %q", rep.Warnings, w)
		}
	}
}

func writeSchema(t *testing.T, ddl string) string {
	t.Helper()
	sch := filepath.Join(t.TempDir(), "schema.sql")
	if err := os.WriteFile(sch, []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	return sch
}
