package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestGoroutines checks entries that start goroutines (go statements,
// sync.WaitGroup.Go): a goroutine whose operations commute with the rest
// of the entry is checked where it starts, its own writes included, and
// the result says so; one that shares database cells, a transaction or
// memory with what may run meanwhile makes the entry UNKNOWN, naming both
// statements; and a goroutine that never ends does not hide the rest of
// the entry.
func TestGoroutines(t *testing.T) {
	type want struct {
		verdict report.Verdict
		texts   []string // in the reason (UNKNOWN) or the assumptions
	}
	wants := map[string]want{
		"AuditedDebit": {report.Safe, []string{"goroutine audit runs where its go statement is (store.go:46)"}},
		"LoggedDebit":  {report.Safe, []string{"goroutine LoggedDebit$1 runs where its go statement is (store.go:52)"}},
		// The goroutine's own unchecked fee breaks the constraint.
		"FeeDebit": {report.Unsafe, []string{"goroutine FeeDebit$1 runs where its go statement is"}},
		// go db.Exec(…): the database call is the goroutine (ignored before).
		"ResetAsync": {report.Unsafe, []string{"goroutine (*database/sql.DB).Exec runs where"}},
		// The goroutine loops forever; the unchecked debit after it runs.
		"Heartbeat": {report.Unsafe, nil},
		"Reserve": {report.Unknown, []string{"goroutine debit may interleave with the rest of the entry",
			"(store.go:23)", "SELECT balance FROM accounts WHERE id = $1", "(store.go:93)"}},
		"FeeFromGoroutine": {report.Unknown, []string{"goroutine FeeFromGoroutine$1 shares memory", "(store.go:103)", "(store.go:108)", "both use fee;"}},
		"DebitAll":         {report.Unknown, []string{"another run of it (a go statement in a loop)", "(store.go:23)"}},
		"TxAsync":          {report.Unknown, []string{"INSERT INTO audit_log", "(store.go:136)", "(store.go:137)", "transaction"}},
		// The entry changes a captured variable the goroutine reads.
		"Refund": {report.Unknown, []string{"goroutine Refund$1 shares memory", "(store.go:175)", "(store.go:177)", "both use amt;"}}, // (not amt#2)
		// Kept at its go statement it would be SAFE; the handler's UPDATE
		// first breaks it (TestGoroutineConflictGroundTruth).
		"Ship": {report.Unknown, []string{"goroutine Ship$1 may interleave with the rest of the entry", "(store.go:159)", "(store.go:161)"}},
	}
	cfg := Config{Dir: testdataDir(t, "goroutine"), Patterns: []string{"./..."}, Dialect: "postgres",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(wants) {
		t.Errorf("%d results, want %d", len(rep.Results), len(wants))
	}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := wants[name]
		if !ok {
			t.Errorf("unexpected entry %s", r.Entry)
			continue
		}
		if r.Verdict != w.verdict {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w.verdict)
			continue
		}
		text := r.Reason + "\n" + strings.Join(r.Assumptions, "\n")
		for _, s := range w.texts {
			if !strings.Contains(text, s) {
				t.Errorf("%s: %q lacks %q", name, text, s)
			}
		}
		if r.Verdict == report.Unsafe && r.Counterexample == nil {
			t.Errorf("%s: UNSAFE without a counterexample", name)
		}
	}
}

// TestGoroutinesConcurrent: with --concurrent, the concurrent requests
// of an entry whose goroutine runs SQL are UNKNOWN (the goroutine runs at
// its go statement, which stands for the interleavings of one request
// only); an entry whose goroutine runs none is proved as before.
func TestGoroutinesConcurrent(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "goroutine"), Patterns: []string{"./..."}, Dialect: "postgres", Entry: "AuditedDebit|LoggedDebit",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		switch {
		case strings.HasSuffix(r.Entry, ".AuditedDebit"):
			if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "starts goroutine audit (store.go:46), which runs SQL") {
				t.Errorf("%s: %s (%s), want UNKNOWN naming the goroutine audit", r.Entry, r.Verdict, r.Reason)
			}
		case r.Verdict != report.Safe || r.Concurrency == nil || r.Concurrency.Scope != report.ScopeProved:
			// The stability proof does not look at the other entries.
			t.Errorf("%s: %s (%s), want SAFE proved for any number of requests", r.Entry, r.Verdict, r.Reason)
		}
	}
	if len(rep.Results) != 2 {
		t.Errorf("%d results, want 2", len(rep.Results))
	}
}

// TestLoopVarGoroutines: a goroutine that captures a range variable of
// a go >= 1.22 module (one variable per iteration, a struct read field
// by field) is checked where it starts, its captured line its own; in a
// go 1.21 module the loop writes the one variable while earlier
// goroutines run, which stays UNKNOWN (adv16 unk_loopvar_goroutine:
// "shares memory … l.Qty" in a go 1.26 module).
func TestLoopVarGoroutines(t *testing.T) {
	type want struct {
		verdict report.Verdict
		text    string // in the reason (UNKNOWN) or the assumptions
	}
	tests := []struct {
		dir   string
		wants map[string]want
	}{
		{"loopvar", map[string]want{
			"ReserveOne": {report.Safe, "goroutine ReserveOne$1 runs where its go statement is"},
			"TakeOne":    {report.Unsafe, "goroutine TakeOne$1 runs where its go statement is"},
			"LogLines":   {report.Safe, "goroutine LogLines$1 runs where its go statement is"},
			// Each run has its own l; their UPDATEs still touch the same
			// cells.
			"ReserveAll": {report.Unknown, "goroutine ReserveAll$1 may interleave with another run of it"},
		}},
		{"loopvar121", map[string]want{
			"ReserveOne": {report.Safe, "goroutine ReserveOne$1 runs where its go statement is"},
			"TakeOne":    {report.Unsafe, "goroutine TakeOne$1 runs where its go statement is"},
			"LogLines":   {report.Unknown, "goroutine LogLines$1 shares memory"},
			"ReserveAll": {report.Unknown, "goroutine ReserveAll$1 shares memory"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, tc.dir), Patterns: []string{"./..."}, Dialect: "postgres",
				Constraints: []string{"products.stock >= 0"}, Workers: 1}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != len(tc.wants) {
				t.Errorf("%d results, want %d", len(rep.Results), len(tc.wants))
			}
			for _, r := range rep.Results {
				name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
				w, ok := tc.wants[name]
				if !ok {
					t.Errorf("unexpected entry %s", r.Entry)
					continue
				}
				text := r.Reason + "\n" + strings.Join(r.Assumptions, "\n")
				if r.Verdict != w.verdict || !strings.Contains(text, w.text) {
					t.Errorf("%s: %s (%s), want %s with %q", name, r.Verdict, text, w.verdict, w.text)
				}
			}
		})
	}
}
