package pipeline

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
)

// TestConcurrentLimitReason: a concurrent UNKNOWN stopped by a product's
// predicate limit (a retry loop around the transaction in both requests,
// REPEATABLE READ) names the pair of entries, the schedule plan that hit
// the limit, the limit in the terms of the flag that raises it, and the
// loop (file:line) where the search grew, which is also the result's
// position. Before: "predicate limit 80 reached … 2 of 25 plans" and no
// position (independent tester adv17, mysqlgap Book).
func TestConcurrentLimitReason(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./levelparam/retry"}, Dialect: "postgres", Isolation: "rr",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true, MaxPredicates: 40}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unknown || r.Limit != refine.LimitWork {
		t.Fatalf("%s (limit %q) %q, want UNKNOWN at a work limit", r.Verdict, r.Limit, r.Reason)
	}
	for _, want := range []string{
		"concurrent requests retry.(*Accounts).Withdraw ∥ retry.(*Accounts).Withdraw: ",
		"the first (plan 1 of 25: A runs 1 database operation, then B 1, then A to its end, then B to its end): predicate limit 40 reached",
		"each product of requests stops at 40 at --max-predicates 40; raise --max-predicates",
		// Unrolled, the 5 attempts made 625 plans whose loop-free products
		// Z3 did not answer, past 7 GB (conc18): the loops stay whole.
		"the requests' counted loops were not unrolled: unrolled, a request has 535 edges (at most 300 unrolled) and the pair 625 schedule plans (at most 64)",
	} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason lacks %q:\n%s", want, r.Reason)
		}
	}
	loop := regexp.MustCompile(`the most predicates \(\d+ of \d+\) at the loop at (levelparam/retry/retry\.go:2[3-6]) \(request [AB]\)`)
	m := loop.FindStringSubmatch(r.Reason)
	if m == nil {
		t.Fatalf("reason names no loop of Withdraw (retry.go:23-26):\n%s", r.Reason)
	}
	if r.Position != m[1] {
		t.Errorf("position %q, want the loop's %s", r.Position, m[1])
	}
}

// TestProductLimitTerms: the limit of a product is restated with the flag
// that raises it and the flag's value, at the defaults and above them.
func TestProductLimitTerms(t *testing.T) {
	for _, tt := range []struct {
		cfg          Config
		reason, want string
	}{
		{Config{}, "predicate limit 80 reached", "predicate limit 80 reached (each product of requests stops at 80 at --max-predicates 150; raise --max-predicates"},
		{Config{MaxPredicates: 300}, "predicate limit 160 reached", "stops at 160 at --max-predicates 300"},
		{Config{}, "SMT query limit 20000 reached (20001 queries)", "SMT query limit 20000 reached (each product of requests stops at 20000 at --max-queries 100000; raise --max-queries"},
		{Config{MaxStates: 2 * refine.DefaultMaxStates}, "boolprog: search limit reached: abstract state limit 300000 reached with 9 predicates", "abstract state limit 300000 reached (each product of requests stops at 300000 at --max-states 2000000; raise --max-states"},
		{Config{}, "refinement found no new predicate", "refinement found no new predicate"},
	} {
		if got := productLimitTerms(tt.cfg, tt.reason); !strings.HasPrefix(got, tt.want) && !strings.Contains(got, tt.want) {
			t.Errorf("%+v %q: %q, want %q", tt.cfg, tt.reason, got, tt.want)
		}
	}
}
