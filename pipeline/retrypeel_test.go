package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentRetryLoopPeeled: a request whose bug needs the second
// attempt of its retry loop (retryversion's Spend re-reads only the
// version: A and B read balance 1, A debits, B's UPDATE matches no row,
// B re-reads the version and debits the balance it checked before: -1) is
// UNSAFE with the schedule. Before, every schedule plan abstracted both
// requests' loops at their heads and the result was UNKNOWN at the SMT
// query limits (adv17's optimistic SpendRetrying); each request's counted
// loop is now peeled before the product is built.
func TestConcurrentRetryLoopPeeled(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./retryversion"}, Dialect: "postgres",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	checkConcurrentResult(t, r, report.Unsafe, "search", "Spend", "", "")
	updates := 0
	for _, s := range r.Schedule {
		if s.Op == "exec" && s.Request == "B" {
			updates++
		}
	}
	if updates < 2 {
		t.Errorf("B runs %d UPDATEs in the schedule %+v, want its second attempt", updates, r.Schedule)
	}
}

// TestConcurrentGapLockNotModelled: a locking read of a missing row at
// InnoDB's REPEATABLE READ takes a gap lock that the row model does not
// have; the 2-request search of a pair that inserts into that table is
// not exact (it lets both first bookings insert, a false UNSAFE where
// MariaDB makes the second a deadlock victim), so the result is UNKNOWN
// naming gap locks and the locking read's line (adv17's mysqlgap Book was
// UNKNOWN at the predicate limit, naming no construct).
func TestConcurrentGapLockNotModelled(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./gaplock"}, Dialect: "mysql",
		Schema: testdataDir(t, "concurrent/gaplock/schema.sql"), Constraints: []string{"room_days.booked <= room_days.capacity"},
		Workers: 1, Concurrent: true}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "gap locks not modelled") || !strings.HasSuffix(r.Position, "gaplock.go:43") {
		t.Fatalf("%s at %q (%s); want UNKNOWN: gap locks not modelled, at the locking read (gaplock.go:43)", r.Verdict, r.Position, r.Reason)
	}
}
