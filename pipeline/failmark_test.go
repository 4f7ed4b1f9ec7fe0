package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestFailingStepMarker: the failing steps of a concurrent counterexample
// are keyed on the error result the frontend marks (ir.Var.SQLErr), not
// on what the program calls it. testdata/concurrent/failnames ignores its
// ledger INSERT's error (no variable names it) and names the others dbErr
// and e: its debit on the pool waits for its own transaction's lock
// unless the INSERT failed and aborted the transaction, so the only
// schedules that break the constraint make both requests' INSERTs fail.
// Both steps must be marked (a replay injects the failures; without them
// the debits wait for their own locks). benchmarks'
// TestReplayConcurrentUnsafe replays the corpus cases with renamed
// errors: pg_conn_ledger_fallback_unsafe (ledgerErr, e) and
// pgx_commit_fallback_unsafe (a failing COMMIT, commitErr).
func TestFailingStepMarker(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches two requests")
	}
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./failnames"}, Dialect: "postgres",
		Workers: 1, Concurrent: true, Constraints: []string{"accounts.balance >= 0"}}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe {
		t.Fatalf("results %+v, want one UNSAFE", rep.Results)
	}
	r := rep.Results[0]
	failed := map[string]bool{}
	for _, s := range r.Schedule {
		if strings.HasPrefix(s.SQL, "INSERT INTO withdrawals") {
			failed[s.Request] = s.Fails
			if s.Deadlock {
				t.Errorf("step %+v: marked as a deadlock victim", s)
			}
		}
	}
	if !failed["A"] || !failed["B"] {
		t.Errorf("schedule %+v: want both requests' ledger INSERTs marked failing", r.Schedule)
	}
	for _, st := range r.Counterexample.Steps {
		if strings.HasPrefix(st.Text, "INSERT INTO withdrawals") && !st.Fails {
			t.Errorf("trace step %+v: want it marked failing", st)
		}
	}
}
