package pipeline

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
)

// TestCancel: a run whose context is cancelled while it works returns its
// report promptly: the job decided before the cancellation keeps its
// verdict, every later one is UNKNOWN "cancelled".
func TestCancel(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "cmd", "dbverify", "testdata", "bank"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var first *report.Result
	start := time.Now()
	rep, err := Run(ctx, Config{
		Dir: dir, Patterns: []string{"./..."}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
		Progress: func(done, total int, r *report.Result) {
			if done == 1 {
				first = r
				cancel()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 3 || first == nil {
		t.Fatalf("%d results, want 3 (the bank's entries)", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r == first {
			if r.Reason == refine.ReasonCancelled {
				t.Errorf("%s: decided before the cancellation, but %s %q", r.Entry, r.Verdict, r.Reason)
			}
			continue
		}
		if r.Verdict != report.Unknown || r.Reason != refine.ReasonCancelled || r.EntryPosition == "" {
			t.Errorf("%s: %s %q at %q, want UNKNOWN %q at the entry", r.Entry, r.Verdict, r.Reason, r.EntryPosition, refine.ReasonCancelled)
		}
	}
	if rep.Stats.Unknown < 2 {
		t.Errorf("stats %+v, want the cancelled results counted as unknown", rep.Stats)
	}
	t.Logf("run took %s", time.Since(start))
}
