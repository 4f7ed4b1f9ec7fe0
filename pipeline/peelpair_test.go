package pipeline

import (
	"strings"
	"testing"
)

// TestPeeledRequestsBounded: a pair's retry loops are unrolled before the
// product only while the peeled search stays within peelMaxPlans and
// peelMaxEdges. levelparam/retry's Withdraw (5 attempts of 5 database
// operations) unrolled makes 625 schedule plans of loop-free products
// that Z3 could not decide, past 7 GB (conc18): its loops stay whole, and
// the reason says why. retryversion's Spend (3 attempts, whose bug needs
// the second) is still unrolled.
func TestPeeledRequestsBounded(t *testing.T) {
	for _, tt := range []struct {
		pkg    string
		peeled bool
		note   string
	}{
		{"./levelparam/retry", false, "unrolled, a request has 535 edges (at most 300 unrolled) and the pair 625 schedule plans (at most 64)"},
		{"./retryversion", true, ""},
	} {
		t.Run(tt.pkg, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tt.pkg}, Dialect: "postgres",
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
			jobs, _ := plannedJobs(t, cfg)
			if len(jobs) != 1 {
				t.Fatalf("%d jobs, want 1", len(jobs))
			}
			j := jobs[0]
			jp, qp, unpeeled := peeledRequests(j.prog, j.prog)
			if jp != qp {
				t.Errorf("the requests of one program were peeled apart")
			}
			if got := jp != j.prog; got != tt.peeled {
				t.Errorf("peeled %t (%d edges of %d), want %t", got, len(jp.Edges), len(j.prog.Edges), tt.peeled)
			}
			if tt.note == "" && unpeeled != "" || !strings.Contains(unpeeled, tt.note) {
				t.Errorf("unpeeled %q, want %q", unpeeled, tt.note)
			}
		})
	}
}
