package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestDeadlockFinding: a transfer that locks its source row and then its
// destination gets the deadlock-prone lock order finding (at the second
// lock, related to the first), and so does a shared lock upgraded by an
// UPDATE of the row, and a closure that moves its captured id to another
// row between two locks (Moved); locking both rows first in id order
// gives none, nor does code that retries on the deadlock error (40P01),
// nor a closure that locks and then updates the row of the id it
// captured (Captured: the frontend reads the captured variable into a
// fresh copy at each use, one key value, adv13 m4). The entries keep
// their SAFE, proved for any number of requests: their deadlock victim
// returns at once.
func TestDeadlockFinding(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./deadlock", "./deadlock/retried"}, Dialect: "postgres",
		Workers: 1, Concurrent: true, Constraints: []string{"accounts.balance >= 0"}}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		if f.Class != report.FindingDeadlock {
			continue
		}
		got = append(got, f.Position+" after "+f.Related)
		if !strings.Contains(f.Message, "40P01") {
			t.Errorf("finding %+v: want the engine's error named", f)
		}
	}
	want := []string{"deadlock/deadlock.go:142 after deadlock/deadlock.go:135",
		"deadlock/deadlock.go:41 after deadlock/deadlock.go:32", "deadlock/deadlock.go:89 after deadlock/deadlock.go:83"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("deadlock findings %q, want %q", got, want)
	}
	for _, r := range rep.Results {
		if r.Verdict != report.Safe || r.Concurrency == nil || r.Concurrency.Scope != report.ScopeProved {
			t.Errorf("%s: %s (%+v), want SAFE proved for any number of requests", r.Entry, r.Verdict, r.Concurrency)
		}
	}
}

// TestDeadlockVictim: two joint charges with the accounts swapped
// deadlock on their share debits; the victim's error path (PostgreSQL:
// its transaction aborted and its locks released, then a debit of the
// payer on the pool; MySQL: its transaction rolled back, then the debit
// on the same connection in autocommit) debits the payer on a balance
// the other charge lowered meanwhile. Both are UNSAFE with a schedule
// whose victim step is marked; on MySQL it is listed after the other
// request's waiting step (InnoDB fails the statement that closes the
// cycle). witness/schedule's TestConcurrentGroundTruth and
// benchmarks' TestReplayConcurrentUnsafe replay them (the corpus's
// *_joint_charge_deadlock_*_unsafe). On PostgreSQL any error of the share
// debit aborts the transaction and releases its lock at once, a deadlock
// or not: the counterexample may make it fail with another error (a
// step marked Fails, which a replay injects) instead.
func TestDeadlockVictim(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches two requests")
	}
	for _, tt := range []struct{ pkg, dialect string }{{"./deadlock/pgfallback", "postgres"}, {"./deadlock/mysqlignored", "mysql"}} {
		t.Run(tt.dialect, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect),
				Workers: 1, Concurrent: true, Constraints: []string{"accounts.balance >= 0"}}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe {
				t.Fatalf("results %+v, want one UNSAFE", rep.Results)
			}
			r := rep.Results[0]
			if tt.dialect == "mysql" && !strings.Contains(r.Concurrency.StabilityFailed, "deadlock victim") {
				t.Errorf("stability failed %q: want the proof not trusted for the deadlock victim's path", r.Concurrency.StabilityFailed)
			}
			victim := -1
			for i, s := range r.Schedule {
				if s.Deadlock || (tt.dialect == "postgres" && s.Fails) {
					victim = i
				}
			}
			if victim < 1 {
				t.Fatalf("schedule %+v: want a step marked as the deadlock victim (or, on PostgreSQL, failing)", r.Schedule)
			}
			if v := r.Schedule[victim]; !v.Deadlock {
				if !strings.Contains(v.SQL, "AND balance >=") {
					t.Errorf("schedule %+v: want the share debit failing", r.Schedule)
				}
				return
			}
			v, other := r.Schedule[victim], r.Schedule[victim-1]
			if tt.dialect == "postgres" {
				other = r.Schedule[victim+1]
			}
			if !strings.Contains(v.SQL, "AND balance >=") || !strings.Contains(other.SQL, "AND balance >=") || v.Request == other.Request {
				t.Errorf("schedule %+v: want the victim's share debit beside the other request's", r.Schedule)
			}
		})
	}
}
