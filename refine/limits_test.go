package refine

import (
	"fmt"
	"testing"

	"github.com/dbverify/dbverify/smt"
)

// TestLimitOf: the reasons of the work limits and of the wall-clock limits
// are told apart; a reason that is no limit has none.
func TestLimitOf(t *testing.T) {
	for _, tt := range []struct {
		reason, want string
	}{
		{fmt.Sprintf("solver answered unknown (%s: the check used its 10000000 Z3 resource units (canceled)) on the loop-free path formula", smt.ReasonWorkLimit), LimitWork},
		{"SMT query limit 100000 reached (100012 queries)", LimitWork},
		{"predicate limit 150 reached", LimitWork},
		{"refinement limit 20 reached", LimitWork},
		{"boolprog: search limit reached: abstract state limit 1000000 reached with 76 predicates", LimitWork},
		{fmt.Sprintf("solver answered unknown (%s: the check ran 10000 ms (canceled))", smt.ReasonTimeout), LimitWallClock},
		{"time limit 1m0s reached (wall clock, the safety net)", LimitWallClock},
		{ReasonDeadline, LimitWallClock},
		{"unsupported: recursion at a.go:3", ""},
		{"a counterexample was found, but it reads x: it may be spurious", ""},
		{ReasonCancelled, ""},
	} {
		if got := LimitOf(tt.reason); got != tt.want {
			t.Errorf("LimitOf(%q) = %q, want %q", tt.reason, got, tt.want)
		}
	}
}
