package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
)

// verify decides one (entry, constraint): it lowers the entry's program
// into the row model of c, then runs the engine (or reads the cache).
func verify(ctx context.Context, entry string, prog *ir.Program, c spec.Property, in *inputs, s *smt.Solver, cfg Config) *report.Result {
	start := time.Now()
	r := &report.Result{Entry: entry, Constraint: c.Label(), Predicates: []string{}, Dialect: ownDialect(cfg, prog)}
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	if u, ok := c.(*spec.Unsupported); ok {
		r.Verdict = report.Unknown
		r.Reason = fmt.Sprintf("constraint not checked: %s; the row model checks a condition over one row of one table, or a reference to a declared key (%s may change what it reads)", u.Reason, shortName(entry))
		return r
	}
	if len(prog.Unsupported) > 0 {
		var parts []string
		for _, u := range prog.Unsupported {
			parts = append(parts, fmt.Sprintf("%s at %s", u.What, u.Position()))
		}
		r.Verdict = report.Unknown
		r.Reason = "unsupported: " + strings.Join(dedupe(parts), "; ")
		r.Position = prog.Unsupported[0].Position()
		return r
	}
	if ref, ok := c.(*spec.Reference); ok && ref.Declared != nil {
		return enforcedReference(r, ref, progDialect(cfg, prog), in.schema, prog)
	}
	facts, checks := withCheckFacts(in.schema, c, prog, in.facts)
	low, err := dbmodel.Lower(prog, c, dbmodel.Options{Schema: in.schema, NoInferKey: cfg.NoInferKey, Facts: facts, Dialect: progDialect(cfg, prog)})
	if err != nil {
		r.Verdict, r.Reason = report.Unknown, "internal: "+err.Error()
		return r
	}
	// One name per value: no formula or predicate over a plain copy.
	ir.PropagateCopies(low.Program)
	// Loops with a known small trip count become straight-line code.
	ir.PeelCountedLoops(low.Program, peelTrips, peelEdges(low.Program))
	r.Assumptions = append(slices.Clone(prog.Assumptions), low.Assumptions...)
	if len(checks) > 0 {
		var names []string
		for _, f := range checks {
			names = append(names, checkFactName(f, string(progDialect(cfg, prog))))
		}
		r.Assumptions = append(r.Assumptions, "the schema's CHECK constraints hold on entry (the database enforces them): "+strings.Join(names, ", "))
	}
	if cfg.KeepIR {
		r.IR = low.Program.String()
	}
	if sat, err := s.Sat(low.OnEntry); err == nil && sat == smt.Unsat {
		r.Verdict, r.Vacuous = report.Unknown, true
		r.Reason = "vacuous: no database state and arguments satisfy the constraint together with the --assume facts and the schema's CHECKs, so nothing can be checked"
		return r
	}
	cache := resultCache{dir: cfg.CacheDir}
	var keys cacheKeys
	if cfg.CacheDir != "" && !cfg.KeepBoolProg {
		keys = cache.keys(cfg.ToolID, cfg, low.Program)
		if res, ok := cache.lookup(keys); ok {
			setOutcome(r, res)
			r.BoolProg, r.SMTQueries, r.Cached = "", 0, true
			return r
		}
	}
	timedOut := s.Stats().TimedOut
	res := runEngine(ctx, cfg, low.Program, s, false)
	setOutcome(r, res)
	if keys.decided != "" {
		cache.put(keys, res, clockFree(ctx, cfg, time.Since(start), s.Stats().TimedOut-timedOut))
	}
	return r
}

// clockFree reports whether no wall clock acted on a check that took
// elapsed (and its result's earlier checks) and had so many solver checks
// answer Unknown for lack of time (smt.Stats.TimedOut: --timeout, or the
// restarts' ladder spent): none did, its time limit was not reached and
// the run was neither cancelled nor past its deadline. Then only work
// decided it. (A check restarted after a time-out that then answered
// answers as without a clock.)
func clockFree(ctx context.Context, cfg Config, elapsed time.Duration, timedOut int) bool {
	return timedOut == 0 && ctx.Err() == nil && (cfg.TimeLimit <= 0 || elapsed < cfg.TimeLimit)
}

// runEngine runs cfg's engine on the lowered program; canonical asks
// for counterexamples that do not depend on the solver's state.
func runEngine(ctx context.Context, cfg Config, p *ir.Program, s *smt.Solver, canonical bool) *refine.Result {
	opt := refine.Options{
		MaxRefinements: cfg.MaxRefinements, KeepBoolProg: cfg.KeepBoolProg, Timeout: cfg.TimeLimit,
		MaxQueries: cfg.MaxQueries, MaxPredicates: cfg.MaxPredicates, MaxStates: cfg.MaxStates,
		Canonical: canonical,
	}
	if cfg.TimeLimit == 0 {
		opt.Timeout = -1 // none, as documented (refine's zero is its 2-minute default)
	}
	switch cfg.Engine {
	case EnginePaths:
		return refine.CheckPaths(ctx, p, s, opt, cfg.MaxPaths)
	case EngineFixpoint:
		return refine.Check(ctx, p, s, opt)
	default:
		return refine.CheckLBE(ctx, p, s, opt)
	}
}

// setOutcome copies the engine's outcome into r.
func setOutcome(r *report.Result, res *refine.Result) {
	r.Verdict, r.Reason, r.Position = res.Verdict, res.Reason, res.Position
	r.Refinements = res.Refinements
	if res.Predicates != nil {
		r.Predicates = res.Predicates
	}
	r.Proof, r.Engine = res.Proof, res.Engine
	if res.Verdict == refine.Unsafe {
		r.Counterexample = res.Trace
	}
	r.BoolProg = res.BoolProg
	r.SMTQueries = res.Stats.SMTQueries
}

// dedupe returns xs without repetitions, in the order of first
// occurrence.
func dedupe(xs []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(slices.Clone(xs), func(x string) bool {
		if seen[x] {
			return true
		}
		seen[x] = true
		return false
	})
}

// progDialect is the dialect prog's SQL is lowered in: the entry's own
// when its handles tell (a program with handles of two dialects), else
// the run's.
func progDialect(cfg Config, prog *ir.Program) string {
	if prog.Dialect != "" {
		return prog.Dialect
	}
	return string(cfg.Dialect)
}

// ownDialect is prog's dialect where it is not the run's ("" otherwise).
func ownDialect(cfg Config, prog *ir.Program) string {
	if d := progDialect(cfg, prog); d != string(cfg.Dialect) {
		return d
	}
	return ""
}

// peelTrips is the most iterations of a counted loop ir.PeelCountedLoops
// unrolls; peelEdges bounds the program's size after unrolling (four times
// its size, at least 2,000 edges).
const peelTrips = 8

func peelEdges(p *ir.Program) int { return max(2000, 4*len(p.Edges)) }
