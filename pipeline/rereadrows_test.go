package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestRereadRows: two executions of one SELECT … FROM charges loop in one
// sequential run, nothing written to charges between them, read the same
// rows in a real run; the model keeps no result set from one execution to
// the next, so a counterexample whose second pass sees a charge the first
// did not is UNKNOWN, naming the query (it was a false UNSAFE, independent
// tester adv16 fu3). One execution per path stays exact: one pass debited
// unchecked, and two query sites on exclusive branches
// (rows_two_branches_unsafe, which an approximation of every rows.Next()
// of a table two sites iterate had turned UNKNOWN), are UNSAFE. A bug
// whose counterexample needs the two passes to agree (reread_fee_unsafe:
// the second pass adds a fee the first did not check) is UNSAFE: the path
// is solved again with the reads agreeing, and the loops run once more
// where the first block path cannot agree (refine/rereads.go); one that
// needs them to disagree (reread_fee_safe) stays UNKNOWN.
func TestRereadRows(t *testing.T) {
	for _, tt := range []struct {
		dir     string
		dialect Dialect
		schema  bool
		want    report.Verdict
	}{
		{"trust/reread_rows_safe", "sqlite", true, report.Unknown},
		{"trust/reread_rows_unsafe", "sqlite", true, report.Unsafe},
		{"trust/rows_two_branches_unsafe", "", false, report.Unsafe},
		{"trust/reread_fee_unsafe", "sqlite", true, report.Unsafe},
		{"trust/reread_fee_safe", "sqlite", true, report.Unknown},
	} {
		dir := corpusCase(tt.dir)
		cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: tt.dialect, Constraints: []string{"accounts.balance >= 0"}, Workers: 1}
		if tt.schema {
			cfg.Schema = dir + "/schema.sql"
		}
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", tt.dir, len(rep.Results))
		}
		if r := rep.Results[0]; r.Verdict != tt.want {
			t.Fatalf("%s: %s (%s), want %s", tt.dir, r.Verdict, r.Reason, tt.want)
		}
		if r := rep.Results[0]; tt.want == report.Unknown && !strings.Contains(r.Reason, `different rows (row 1) from two executions of "SELECT amount FROM charges WHERE account_id = ?"`) {
			t.Errorf("%s: reason %q does not name the two executions of the query", tt.dir, r.Reason)
		}
	}
}
