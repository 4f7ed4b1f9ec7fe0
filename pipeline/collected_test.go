package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCollectedSliceDecidedPlainFirst: an entry that collects rows into a
// slice is decided first without following an element of the slice, and
// with it only when that is UNKNOWN. booking/promote_waitlist_safe is
// SAFE either way, but took 41,746 SMT queries (50 s of CPU) with the
// element followed and takes 2,520 without; loyalty/expire_batches_unsafe
// needs the followed element for its counterexample, and is still UNSAFE.
func TestCollectedSliceDecidedPlainFirst(t *testing.T) {
	tests := []struct {
		dir         string
		constraints []string
		want        report.Verdict
		maxQueries  int
	}{
		{"booking/promote_waitlist_safe", []string{"events.booked <= events.capacity"}, report.Safe, 10000},
		{"loyalty/expire_batches_unsafe", []string{"members.points >= 0"}, report.Unsafe, 0},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{Dir: corpusCase(tt.dir), Patterns: []string{"./..."}, Constraints: tt.constraints, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Verdict != tt.want {
				t.Fatalf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason, tt.want)
			}
			if tt.maxQueries > 0 && r.SMTQueries > tt.maxQueries {
				t.Errorf("%s: %d SMT queries, want at most %d", r.Entry, r.SMTQueries, tt.maxQueries)
			}
		})
	}
}
