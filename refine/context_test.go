package refine

import (
	"context"
	"testing"
	"time"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// TestCancel: cancelling the context stops each engine promptly on a
// program it would refine for a long time (evenStep diverges; every
// limit but the context is lifted), with UNKNOWN "cancelled"; a context
// cancelled before the start returns at once without using the solver.
func TestCancel(t *testing.T) {
	unlimited := Options{MaxRefinements: 1 << 30, MaxPredicates: 1 << 30, MaxStates: 1 << 30, MaxQueries: 1 << 30, Timeout: -1}
	engines := []struct {
		name  string
		check func(context.Context, *ir.Program, *smt.Solver) *Result
	}{
		{"fixpoint", func(ctx context.Context, p *ir.Program, s *smt.Solver) *Result { return Check(ctx, p, s, unlimited) }},
		{"lbe", func(ctx context.Context, p *ir.Program, s *smt.Solver) *Result { return CheckLBE(ctx, p, s, unlimited) }},
		{"paths", func(ctx context.Context, p *ir.Program, s *smt.Solver) *Result {
			return CheckPaths(ctx, p, s, unlimited, 1<<30)
		}},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			const after = 300 * time.Millisecond
			time.AfterFunc(after, cancel)
			start := time.Now()
			res := e.check(ctx, evenStep(), newSolver(t))
			took := time.Since(start)
			if res.Verdict != Unknown || res.Reason != ReasonCancelled {
				t.Fatalf("%s %q after %s, want UNKNOWN %q (cancelled after %s)", res.Verdict, res.Reason, took, ReasonCancelled, after)
			}
			if took > after+2*time.Second {
				t.Errorf("returned %s after the cancellation, want promptly", took-after)
			}

			s := newSolver(t)
			res = e.check(ctx, evenStep(), s)
			if res.Verdict != Unknown || res.Reason != ReasonCancelled || s.Stats().Queries != 0 {
				t.Errorf("already cancelled: %s %q with %d queries, want UNKNOWN %q and none", res.Verdict, res.Reason, s.Stats().Queries, ReasonCancelled)
			}
		})
	}
}

// TestDeadline: a deadline of the context bounds the engine like its own
// time limit.
func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := Check(ctx, evenStep(), newSolver(t), Options{MaxRefinements: 1 << 30, MaxPredicates: 1 << 30, MaxQueries: 1 << 30, Timeout: time.Hour})
	if took := time.Since(start); res.Verdict != Unknown || took > 3*time.Second {
		t.Errorf("%s %q after %s, want UNKNOWN soon after the 300ms deadline", res.Verdict, res.Reason, took)
	}
}
