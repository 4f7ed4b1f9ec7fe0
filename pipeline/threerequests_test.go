package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestThreeRequests: the fixed fee of 50 taken when a plain read saw at
// least 100 keeps the balance for two concurrent requests (bounded SAFE)
// and breaks it with three (100 - 3 × 50); --requests 3 finds the three
// reads before the three debits. A fee guarded by a lock stays proved for
// any number of requests; a fee of 50 taken above 150 is SAFE bounded
// by three requests.
func TestThreeRequests(t *testing.T) {
	src := testdataDir(t, "concurrent")
	run := func(pkg string, requests int) *report.Result {
		t.Helper()
		rep, err := runShared(context.Background(), Config{Dir: src, Patterns: []string{pkg}, Dialect: "postgres",
			Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true, Requests: requests})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", pkg, len(rep.Results))
		}
		return rep.Results[0]
	}
	two := run("./bounded", 2)
	if two.Verdict != report.Safe || two.Concurrency.Scope != report.ScopeBounded {
		t.Fatalf("2 requests: %s %q (%s), want SAFE %q", two.Verdict, two.Concurrency.Scope, two.Reason, report.ScopeBounded)
	}
	three := run("./bounded", 3)
	if three.Verdict != report.Unsafe || three.Concurrency.Scope != report.ScopeSearch3 {
		t.Fatalf("3 requests: %s %q (%s), want UNSAFE %q", three.Verdict, three.Concurrency.Scope, three.Reason, report.ScopeSearch3)
	}
	if len(three.Requests) != 3 || !strings.HasSuffix(three.ConcurrentWith, ".Fee") {
		t.Fatalf("3 requests: %d requests, concurrent with %q; want 3, Fee", len(three.Requests), three.ConcurrentWith)
	}
	// The three reads come before the first debit: each saw 100 or more.
	var ops []string
	for _, s := range three.Schedule {
		ops = append(ops, s.Request+":"+s.Op)
	}
	reads := 0
	for _, s := range three.Schedule {
		if s.Op == "exec" {
			break
		}
		reads++
	}
	if reads != 3 || len(three.Schedule) != 6 {
		t.Fatalf("3 requests: schedule %v, want three reads before the first debit, 6 operations", ops)
	}
	if three.InitialRows[0].Values["balance"] == "" {
		t.Fatalf("3 requests: no initial balance in %v", three.InitialRows)
	}
	// 150 − 3 × 50 = 0: three requests keep it (four would not).
	// (Searched in every interleaving, or where that is undecided in the
	// schedules where each runs some operations and then to its end.)
	if b3 := run("./bounded3", 3); b3.Verdict != report.Safe || !strings.HasPrefix(b3.Concurrency.Scope, "bounded:") || !strings.Contains(b3.Concurrency.Scope, "3 requests") {
		t.Fatalf("bounded3 with 3 requests: %s %q (%s), want SAFE bounded by 3 requests", b3.Verdict, b3.Concurrency.Scope, b3.Reason)
	}
	if locked := run("./forupdate", 3); locked.Verdict != report.Safe || locked.Concurrency.Scope != report.ScopeProved {
		t.Fatalf("forupdate with 3 requests: %s %q, want SAFE %q", locked.Verdict, locked.Concurrency.Scope, report.ScopeProved)
	}
}
