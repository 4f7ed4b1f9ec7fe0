package pipeline

import (
	"context"
	"fmt"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

// roundedCheck re-decides a SAFE result of job j, proved with float
// arithmetic on exact reals, on j's program with float results rounded
// (frontend.TranslateRounded): SAFE there holds for float64, and is the
// result (with the rounding assumption instead of exactness); anything
// else makes the result UNKNOWN, since a SAFE that depends on exact
// arithmetic may be wrong (adv5 p47: amount*1.15 checked, amount +
// amount*0.15 debited, a balance left at -1.4e-14), and a rounded
// counterexample may be spurious (it picks roundings float64 may not
// make).
func roundedCheck(ctx context.Context, exact *report.Result, j job, in *inputs, s *smt.Solver, cfg Config) *report.Result {
	if err := s.Reset(); err != nil {
		return exact
	}
	r := verify(ctx, j.entry, j.rounded, j.c, in, s, cfg)
	r.SMTQueries += exact.SMTQueries
	r.Seconds += exact.Seconds
	if r.Verdict == report.Safe {
		return r
	}
	out := *exact
	out.Verdict, out.Proof, out.Predicates = report.Unknown, "", []string{}
	out.SMTQueries, out.Seconds = r.SMTQueries, r.Seconds
	switch r.Verdict {
	case report.Unsafe:
		out.Position = r.Position
		out.Reason = fmt.Sprintf("float rounding: SAFE with exact real arithmetic, but a run whose float results each round within their type's error (2^-51 relative for float64, 2^-23 for float32) breaks the constraint at %s (it may be spurious: the roundings it picks are not checked against IEEE 754's)", r.Position)
	default:
		out.Reason = "float rounding: SAFE with exact real arithmetic, not decided with float results rounded: " + r.Reason
	}
	return &out
}

// wrappedCheck re-decides a SAFE result of job j, proved with
// mathematical integers because the entry has a loop (an assumption the
// result prints), on j's program with Go's wrap-around, under a quarter
// of the query limit, and five times the queries of the first proof
// (wrapped values multiply the predicates a loop
// invariant is sought among: booking's Promote went from 277 queries
// past the limit). SAFE or UNSAFE there is the result (adv6 m52: a loop
// that validates tags made an overflow bug SAFE "assuming no overflow";
// MaxInt64 - MinInt64 debited leaves -1); UNKNOWN keeps the result on
// mathematical integers, with its assumption.
func wrappedCheck(ctx context.Context, math *report.Result, j job, in *inputs, s *smt.Solver, cfg Config) *report.Result {
	if err := s.Reset(); err != nil {
		return math
	}
	limited := cfg
	limited.MaxQueries = wrappedQueries(cfg.MaxQueries, math.SMTQueries)
	r := verify(ctx, j.entry, j.wrapped, j.c, in, s, limited)
	r.SMTQueries += math.SMTQueries
	r.Seconds += math.Seconds
	if r.Verdict == report.Safe || r.Verdict == report.Unsafe {
		return r
	}
	out := *math
	out.SMTQueries, out.Seconds = r.SMTQueries, r.Seconds
	return &out
}

// wrappedQueries is the query limit of wrappedCheck: five times the
// queries the proof on mathematical integers took (at least 1,000), and
// at most a quarter of the result's limit.
func wrappedQueries(limit, used int) int {
	if limit <= 0 {
		limit = refine.DefaultMaxQueries
	}
	return min(limit/4, max(1000, 5*used))
}
