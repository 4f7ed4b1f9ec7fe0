package refine

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// countUp is x >= 0, then x := x + 1 thirty times, then a check x >= 0:
// SAFE, decided in the first round over the seeded predicates x >= k,
// whose abstraction asks many queries (one per edge and predicate).
func countUp() (*ir.Program, []ir.Expr) {
	p := ir.NewProgram("count.up")
	x := p.NewVar("x", ir.Int, ir.Local)
	from := p.NewLoc()
	p.AddEdge(p.Entry, from, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(0))})
	for range 30 {
		to := p.NewLoc()
		p.AddEdge(from, to, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(1))}})
		from = to
	}
	p.AddEdge(from, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(0))})
	p.AddEdge(from, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(0))})
	var seeds []ir.Expr
	for k := range 6 {
		seeds = append(seeds, ir.Cmp(ir.OpGe, x, lit(int64(3*k))))
	}
	return p, seeds
}

// TestQueryLimitWithinBuild: --max-queries bounds the fixpoint engine
// inside an abstraction build, not only between refinements: with
// a quarter of the queries the one round of countUp asks, the result is
// UNKNOWN at the query limit having asked about that many (before, the
// build ran to its end and the check answered SAFE past the limit).
func TestQueryLimitWithinBuild(t *testing.T) {
	p, seeds := countUp()
	full := Check(context.Background(), p, newSolver(t), Options{Seeds: seeds})
	if full.Verdict != Safe || full.Stats.SMTQueries < 40 {
		t.Fatalf("without a limit: %s %q with %d queries, want SAFE with at least 40", full.Verdict, full.Reason, full.Stats.SMTQueries)
	}
	limit := full.Stats.SMTQueries / 4
	p, seeds = countUp()
	cut := Check(context.Background(), p, newSolver(t), Options{Seeds: seeds, MaxQueries: limit})
	if cut.Verdict != Unknown || !strings.Contains(cut.Reason, "SMT query limit") || LimitOf(cut.Reason) != LimitWork {
		t.Fatalf("with MaxQueries %d of %d: %s %q, want UNKNOWN at the query limit", limit, full.Stats.SMTQueries, cut.Verdict, cut.Reason)
	}
	if cut.Stats.SMTQueries > 2*limit {
		t.Errorf("with MaxQueries %d: %d queries (the full check asks %d)", limit, cut.Stats.SMTQueries, full.Stats.SMTQueries)
	}
	t.Logf("%d queries without a limit; with %d: %d, %q", full.Stats.SMTQueries, limit, cut.Stats.SMTQueries, cut.Reason)
}
