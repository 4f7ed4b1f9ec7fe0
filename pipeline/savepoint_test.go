package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestSavepoints runs the row model's savepoints (dbmodel/savepoint.go)
// on the programs of testdata/savepoint; before they were modelled every
// one was UNKNOWN (SAVEPOINT not modelled, ROLLBACK TO unsupported).
//   - undo: ROLLBACK TO undoes an overdrawing debit made after the
//     savepoint: SAFE.
//   - beforesp: the debit precedes the savepoint, which ROLLBACK TO does
//     not undo: UNSAFE (a model that rolled the whole transaction back
//     would prove it SAFE).
//   - lockafter: the row lock a write took after the savepoint is gone
//     after ROLLBACK TO on PostgreSQL and MariaDB (groundtruth's
//     TestSavepointSemantics), so the pool's unguarded debit runs: UNSAFE
//     (kept, the debit would wait for the lock and fail: SAFE).
//   - subabort: on PostgreSQL a failed INSERT inside the savepoint aborts
//     only the savepoint's subtransaction; ROLLBACK TO makes the
//     transaction usable again, and the unguarded debit after it is
//     committed: UNSAFE (a model that ended the transaction at the error
//     fails the ROLLBACK TO: SAFE).
func TestSavepoints(t *testing.T) {
	tests := []struct {
		pkg     string
		dialect Dialect
		want    report.Verdict
	}{
		{"undo", "postgres", report.Safe},
		{"undo", "mysql", report.Safe},
		{"undo", "sqlite", report.Safe},
		{"beforesp", "postgres", report.Unsafe},
		{"beforesp", "mysql", report.Unsafe},
		{"lockafter", "postgres", report.Unsafe},
		{"lockafter", "mysql", report.Unsafe},
		{"subabort", "postgres", report.Unsafe},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+string(tt.dialect), func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "savepoint"), Patterns: []string{"./" + tt.pkg}, Dialect: tt.dialect,
				Workers: 1, Constraints: []string{"accounts.balance >= 0"}}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			if r := rep.Results[0]; r.Verdict != tt.want {
				t.Errorf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason, tt.want)
			}
		})
	}
}

// TestSavepointsConcurrent: the concurrent model does not undo to a
// savepoint, so --concurrent leaves a SAFE entry that sets one UNKNOWN,
// naming the statement.
func TestSavepointsConcurrent(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "savepoint"), Patterns: []string{"./undo"}, Dialect: "postgres",
		Workers: 1, Concurrent: true, Constraints: []string{"accounts.balance >= 0"}}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "SAVEPOINT") || !strings.Contains(r.Reason, "undo.go:14") {
		t.Errorf("%s: %s (%s), want UNKNOWN naming SAVEPOINT at undo.go:14", r.Entry, r.Verdict, r.Reason)
	}
}
