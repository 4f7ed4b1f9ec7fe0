package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
)

// TestWorkLimit: the per-check work limit is deterministic. With no wall
// clock at all, a tiny limit makes the same program UNKNOWN, for a reason
// that names the work limit, run after run; the default limit decides it.
func TestWorkLimit(t *testing.T) {
	tests := []struct {
		name   string
		rlimit int
		want   refine.Verdict
		reason string
	}{
		{"default", 0, refine.Safe, ""},
		{"tiny", 1, refine.Unknown, smt.ReasonWorkLimit},
		{"tiny again", 1, refine.Unknown, smt.ReasonWorkLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{
				Dir: corpusCase("core/guard_go_safe"), Patterns: []string{"./..."},
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
				TimeoutMS: 0, RLimit: tt.rlimit,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("got %d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Verdict != tt.want || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("rlimit %d: %s %q, want %s with a reason naming %q", tt.rlimit, r.Verdict, r.Reason, tt.want, tt.reason)
			}
		})
	}
}
