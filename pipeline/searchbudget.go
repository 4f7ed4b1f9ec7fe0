package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

// The limits of the concurrent check of one result.
//
// --time-limit bounds one (entry, constraint) result, and with
// --concurrent that is the sequential check and the whole concurrent one
// after it: the stability and serializable proofs, the product of every
// interleaving of each pair, each schedule plan, the 3-request search.
// Before, each engine run got the whole limit and the schedule plans three
// times it, pair by pair: the independent tester's p15 (SERIALIZABLE, a
// retry loop, an autocommit writer) ran past 14 minutes with
// --time-limit 12m. --max-queries likewise bounds the SMT queries of the
// whole concurrent check of a result (its default, refine's, is far above
// what any corpus case spends: 30,000 at most), on top of the per-product
// and per-pair limits of searchlimits.go.

// searchBudget is what the concurrent check of one result may still spend,
// and how far it got (for the reason of the limit that stops it).
type searchBudget struct {
	maxQueries int // SMT queries of the whole concurrent check
	used       int // spent so far
	// where the check is: the stage ("the stability proof", "the product
	// of every interleaving of A ∥ B", "the schedule plans of A ∥ B"),
	// the schedule plans of the current pair tried and planned, and the
	// pairs done of those to search.
	stage             string
	plans, planTotal  int
	pairs, pairsTotal int
}

// newSearchBudget returns the budget of one result under cfg.
func newSearchBudget(cfg Config) *searchBudget {
	b := &searchBudget{maxQueries: cfg.MaxQueries}
	if b.maxQueries <= 0 {
		b.maxQueries = refine.DefaultMaxQueries
	}
	return b
}

// left is the SMT queries still allowed (at least 0).
func (b *searchBudget) left() int { return max(b.maxQueries-b.used, 0) }

// spend records n queries.
func (b *searchBudget) spend(n int) { b.used += n }

// at records the stage the check enters.
func (b *searchBudget) at(stage string) { b.stage, b.plans, b.planTotal = stage, 0, 0 }

// progress says how far the check got.
func (b *searchBudget) progress() string {
	s := "in " + b.stage
	if b.planTotal > 0 {
		s += fmt.Sprintf(", after %d of %d schedule plans", b.plans, b.planTotal)
	}
	if b.pairsTotal > 0 {
		s += fmt.Sprintf("; %d of %d pairs of requests searched", b.pairs, b.pairsTotal)
	}
	return s
}

// queryLimitReason is the reason of a result whose concurrent check ran
// out of b's queries ("SMT query limit": refine.LimitOf's work limit).
func (b *searchBudget) queryLimitReason() string {
	return fmt.Sprintf("SMT query limit of the concurrent check of one result reached (--max-queries %d): %d queries, stopped %s", b.maxQueries, b.used, b.progress())
}

// errTimeLimit is the cause of the end of a concurrent check's context at
// --time-limit.
var errTimeLimit = errors.New("--time-limit reached")

// verifyConcurrent decides (entry, c) of job j for concurrent requests
// (verifyConcurrentWithin), within the result's limits: with a time limit,
// the rest of it after the sequential check seq, on a solver of its own
// that the limit interrupts (the worker's, interrupted, would be finished
// for the jobs after this one). A result the limit stops is UNKNOWN with
// the limit and how far the check got; a cancelled run's is "cancelled".
func verifyConcurrent(ctx context.Context, seq *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config) *report.Result {
	r, _ := verifyConcurrentTimed(ctx, seq, j, peers, in, s, cfg)
	return r
}

// verifyConcurrentTimed is verifyConcurrent; it also returns how many
// checks of the solver of its own (under a time limit) answered Unknown
// for lack of time (smt.Stats.TimedOut), for the result cache.
func verifyConcurrentTimed(ctx context.Context, seq *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config) (*report.Result, int) {
	b := newSearchBudget(cfg)
	if cfg.TimeLimit <= 0 || seq.Verdict != report.Safe {
		return verifyConcurrentWithin(ctx, seq, j, peers, in, s, cfg, b), 0
	}
	left := cfg.TimeLimit - time.Duration(seq.Seconds*float64(time.Second))
	deadline := time.Now().Add(max(left, time.Nanosecond))
	tctx, cancel := context.WithDeadlineCause(ctx, deadline, errTimeLimit)
	defer cancel()
	own, err := newSolver(cfg)
	if err != nil {
		return internalError(&report.Result{Entry: seq.Entry, EntryPosition: seq.EntryPosition, Constraint: seq.Constraint,
			Predicates: []string{}, Isolation: seq.Isolation, Concurrency: &report.Concurrency{}}, err), 0
	}
	defer own.Close()
	r := verifyConcurrentWithin(tctx, seq, j, peers, in, own, cfg, b)
	r.SolverRestarts = own.Stats().Restarts
	if r.Verdict == report.Unknown && ctx.Err() == nil && (tctx.Err() != nil || !time.Now().Before(deadline)) {
		r.Position, r.Counterexample = "", nil
		r.Reason = fmt.Sprintf("time limit %s of the result reached (wall clock, --time-limit) in the concurrent check, stopped %s", cfg.TimeLimit, b.progress())
	}
	return r, own.Stats().TimedOut
}

// stopped is the reason of a search that ctx stopped, "" while it runs:
// the run's cancellation or deadline, or this result's time limit
// (verifyConcurrent replaces the reason then, knowing how far it got).
func stopped(ctx context.Context) string {
	err := ctx.Err()
	switch {
	case err == nil:
		return ""
	case errors.Is(context.Cause(ctx), errTimeLimit):
		return "time limit reached (wall clock, --time-limit)"
	case errors.Is(err, context.DeadlineExceeded):
		return refine.ReasonDeadline
	}
	return refine.ReasonCancelled
}

// config is cfg with its SMT queries lowered to what b has left (at least
// one: an engine's zero is its default).
func (b *searchBudget) config(cfg Config) Config {
	if cfg.MaxQueries <= 0 || cfg.MaxQueries > b.left() {
		cfg.MaxQueries = max(b.left(), 1)
	}
	return cfg
}
