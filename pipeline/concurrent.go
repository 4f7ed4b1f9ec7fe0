package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// peers returns the jobs whose entries may run concurrently with j's
// (same constraint): j itself first, then the others.
func peers(jobs []job, j job) []job {
	out := []job{j}
	for _, o := range jobs {
		if o.c == j.c && o.prog != j.prog {
			out = append(out, o)
		}
	}
	return out
}

// verifyConcurrentWithin decides (entry, c) of job j for concurrent
// requests, given the sequential result seq: an entry UNSAFE or UNKNOWN
// alone keeps that verdict; otherwise the stability check (dbmodel's
// Interference) is tried first, and where it fails, the pair of the entry
// with each peer (itself included) is searched as one product program
// (interleave.Product) at READ COMMITTED, where that is exact for the
// isolation level. Every check spends b's queries.
func verifyConcurrentWithin(ctx context.Context, seq *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config, b *searchBudget) *report.Result {
	start := time.Now()
	iso := isolationOf(cfg.Isolation, string(cfg.Dialect), in.levels, j.prog)
	seq.Isolation = &iso
	if seq.Verdict != report.Safe {
		seq.Concurrency = &report.Concurrency{Scope: report.ScopeSequential}
		return seq
	}
	if ref, ok := j.c.(*spec.Reference); ok && ref.Declared != nil {
		return enforcedConcurrent(seq, ref, peers)
	}
	r := &report.Result{Entry: seq.Entry, EntryPosition: seq.EntryPosition, Constraint: seq.Constraint,
		Predicates: []string{}, Isolation: seq.Isolation, Concurrency: &report.Concurrency{}, Dialect: seq.Dialect}
	defer func() {
		// Every query of the concurrent check, the products searched
		// before the one with a counterexample included (setOutcome keeps
		// that one's only).
		r.Seconds, r.SMTQueries = seq.Seconds+time.Since(start).Seconds(), b.used
	}()
	if why := goroutinesNotSearched(j); why != "" {
		r.Verdict, r.Reason = report.Unknown, why
		return r
	}
	if why := savepointsNotSearched(j); why != "" {
		r.Verdict, r.Reason, r.Position = report.Unknown, why, savepointAt(j)
		return r
	}
	j.prog = mysqlSerialReads(cfg, in.levels, j.prog)
	b.at("the stability proof")
	st, assumptions, err := checkModel(ctx, j.prog, j.c, in, s, b.config(cfg), &dbmodel.Concurrency{Interference: true})
	if err != nil {
		return internalError(r, err)
	}
	r.SMTQueries += st.Stats.SMTQueries
	b.spend(st.Stats.SMTQueries)
	if why := stopped(ctx); why != "" && st.Verdict == report.Unknown {
		r.Verdict, r.Reason = report.Unknown, why
		return r
	}
	// The stability check reads the newest committed state at every plain
	// read; under MySQL's REPEATABLE READ a plain read after the
	// transaction's snapshot was taken reads that snapshot, even of a row
	// the transaction has since locked (adv6 m59: a plain read of another
	// table, SELECT … FOR UPDATE, then a plain read of the balance: SAFE,
	// while two withdrawals leave -20). Where the search would not be
	// exact, the proof is not either.
	gap := isolationGaps(iso.Level, string(cfg.Dialect), j.c.Tables(), j.prog)
	if gap == "" {
		gap = deadlockGap(cfg, in, j.prog)
	}
	if st.Verdict == report.Safe && gap != "" {
		st = &refine.Result{Verdict: report.Unknown, Reason: gap}
	}
	if st.Verdict == report.Safe {
		setOutcome(r, st)
		r.Assumptions = assumptions
		r.Concurrency.Scope = report.ScopeProved
		return r
	}
	r.Concurrency.StabilityFailed = stabilityFailure(st)
	if why := savepointsNotSearched(peers...); why != "" {
		r.Verdict, r.Reason = report.Unknown, fmt.Sprintf("the stability check failed (%s), and %s", r.Concurrency.StabilityFailed, why)
		return r
	}
	b.at("the serializable proof")
	why, iso2, n, err := serialProof(ctx, j, peers, in, s, b.config(cfg))
	if err != nil {
		return internalError(r, err)
	}
	r.SMTQueries += n
	b.spend(n)
	if why := stopped(ctx); why != "" {
		r.Verdict, r.Reason = report.Unknown, why
		return r
	}
	if why != "" {
		r.Verdict, r.Reason = report.Safe, why
		r.Isolation = &iso2
		r.Concurrency.Scope = report.ScopeSerializable
		return r
	}
	r.Concurrency.Scope = report.ScopeSearch
	if why := goroutinesNotSearched(peers...); why != "" {
		r.Verdict, r.Reason = report.Unknown, fmt.Sprintf("the stability check failed (%s), and %s", r.Concurrency.StabilityFailed, why)
		return r
	}
	bounded, done := searchPairs(ctx, r, j, peers, in, s, cfg, b)
	if done {
		return r
	}
	if cfg.Requests >= 3 {
		decided, switches := searchTriples(ctx, r, j, peers, in, s, cfg, b)
		if decided {
			return r
		}
		bounded = scopeWithTriples(bounded, switches)
	}
	r.Verdict = report.Safe
	r.Concurrency.Scope = bounded
	return r
}

// searchPairs searches the pairs of j with each of its peers (itself
// first), the stability check having failed. It records an outcome that
// decides the result in r (done: UNSAFE, or UNKNOWN with the reason: the
// first undecided pair ends the search); otherwise every pair keeps the
// constraint, within the scope bounded.
func searchPairs(ctx context.Context, r *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config, b *searchBudget) (bounded string, done bool) {
	var unknown *refine.Result
	var unknownPair string
	bounded = report.ScopeBounded
	b.pairsTotal = len(peers)
	for _, q := range peers {
		q.prog = mysqlSerialReads(cfg, in.levels, q.prog)
		pair := fmt.Sprintf("%s ∥ %s", shortName(j.entry), shortName(q.entry))
		if why := stopped(ctx); why != "" || b.left() == 0 {
			if why == "" {
				why = b.queryLimitReason()
			}
			r.Verdict, r.Reason = report.Unknown, why
			return "", true
		}
		serial, n, err := serialPair(ctx, j, q, in, s, b.config(cfg))
		if err != nil {
			internalError(r, err)
			return "", true
		}
		r.SMTQueries += n
		b.spend(n)
		if serial != "" {
			b.pairs++
			r.Assumptions = mergeStrings(r.Assumptions, []string{serial})
			continue
		}
		iso2 := isolationOf(cfg.Isolation, string(cfg.Dialect), in.levels, j.prog, q.prog)
		if gap := searchGaps(iso2.Level, string(cfg.Dialect), j.c.Tables(), j.prog, q.prog); gap != "" {
			r.Isolation = &iso2
			r.Verdict = report.Unknown
			r.Reason = fmt.Sprintf("concurrent requests: the stability check failed (%s), and the 2-request search of %s is not exact: %s", r.Concurrency.StabilityFailed, pair, gap)
			return "", true
		}
		if u := firstUnsupported(j.prog, q.prog); u != nil {
			r.Verdict, r.Reason, r.Position = report.Unknown, fmt.Sprintf("unsupported: %s at %s", u.What, u.Position()), u.Position()
			return "", true
		}
		if gap, at := gapLocks(iso2.Level, progDialect(cfg, j.prog), j.prog, q.prog); gap != "" {
			r.Isolation = &iso2
			r.Verdict, r.Position = report.Unknown, at
			r.Reason = fmt.Sprintf("concurrent requests: the stability check failed (%s), and the 2-request search of %s is not exact: %s", r.Concurrency.StabilityFailed, pair, gap)
			return "", true
		}
		sr, err := searchPair(ctx, j, q, in, s, cfg, searchConcurrency(iso2.Level, cfg, j, q), b, pair)
		if err != nil {
			internalError(r, err)
			return "", true
		}
		if stopped(ctx) == "" {
			b.pairs++
		}
		res, prod := sr.res, sr.prod
		tallyPair(r, sr)
		if sr.switches {
			bounded = report.ScopeBoundedSwitches
		}
		if why := spuriousSchedule(cfg, in, iso2, pair, j.prog, q.prog); res.Verdict == report.Unsafe && why != "" {
			r.Isolation = &iso2
			r.Verdict, r.Position, r.Reason = report.Unknown, res.Position, why
			return "", true
		}
		if res.Verdict == report.Unsafe {
			setOutcome(r, res)
			r.Reason = fmt.Sprintf("two concurrent requests (%s) break the constraint; each alone keeps it", pair)
			fillCounterexample(r, prod, in.schema, progDialect(cfg, j.prog), j.entry, q.entry)
			noteInProcessLocks(r, j.prog, q.prog)
			return "", true
		}
		if res.Verdict == report.Unknown {
			// The result cannot be SAFE any more; the other pairs could
			// only give a counterexample, at the cost of this one's
			// search each (adv10's p15: minutes per pair).
			unknown, unknownPair = res, pair
			break
		}
	}
	if unknown != nil {
		r.Verdict, r.Position = report.Unknown, unknown.Position
		r.Reason = fmt.Sprintf("concurrent requests %s: %s", unknownPair, unknown.Reason)
		switch rest := len(peers) - b.pairs; {
		case rest == 1:
			r.Reason += "; the other pair of requests was not searched (the result cannot be SAFE)"
		case rest > 1:
			r.Reason += fmt.Sprintf("; the other %d pairs of requests were not searched (the result cannot be SAFE)", rest)
		}
		if why := stopped(ctx); why != "" {
			// Interrupted in a later pair: say so (SIGINT: "cancelled").
			r.Position, r.Reason = "", why
		}
		return "", true
	}
	return bounded, false
}

// searchConcurrency is the concurrent model of the search of requests j
// and q at level.
func searchConcurrency(level string, cfg Config, j, q job) dbmodel.Concurrency {
	return dbmodel.Concurrency{
		FirstUpdaterWins: firstUpdaterWins(level, string(cfg.Dialect)),
		ConsistentReads:  consistentReads(level, string(cfg.Dialect), j.c.Tables(), j.prog, q.prog),
		NextKeyLocks:     nextKeyLocks(level, string(cfg.Dialect)),
	}
}

// tallyPair adds the search of one pair of requests to r's figures.
func tallyPair(r *report.Result, sr *pairSearch) {
	r.SMTQueries += sr.queries
	r.Concurrency.PairsSearched++
	r.Concurrency.SchedulePlans += sr.plans
	r.Concurrency.Interleavings = addSat(r.Concurrency.Interleavings, sr.interleavings)
	r.Concurrency.InterleavingsUnreduced = addSat(r.Concurrency.InterleavingsUnreduced, sr.unreduced)
	r.Assumptions = mergeStrings(r.Assumptions, sr.assumptions)
}

// spuriousSchedule says why a schedule of progs (requests pair) that
// breaks the constraint at level iso may be impossible ("" if it cannot
// be): SSI aborts more schedules than first-updater-wins, and isolation
// options the code does not write where it begins may set another level.
func spuriousSchedule(cfg Config, in *inputs, iso report.Isolation, pair string, progs ...*ir.Program) string {
	if iso.Level == Serializable && string(cfg.Dialect) == "postgres" {
		return fmt.Sprintf("concurrent requests %s: a schedule breaks the constraint under REPEATABLE READ's first-updater-wins, but SERIALIZABLE (SSI) may abort it: may be spurious", pair)
	}
	if pos := optionsNotShown(cfg.Isolation, in.levels, progs...); pos != "" {
		return fmt.Sprintf("concurrent requests %s: a schedule breaks the constraint at %s, but the transaction begun at %s is given isolation options that are not written there (passed in or kept in a variable, not followed): at the level they set the schedule may be impossible, so it may be spurious (--isolation sets the level)", pair, iso.Level, pos)
	}
	return ""
}

// fullProductRLimit bounds each solver check of the search over every
// interleaving of a pair (Z3 resource units); past it the search falls
// back to schedules with few switches.
const fullProductRLimit = 1_000_000

// pairSearch is the outcome of the search of one pair of requests: the
// engine's result on the product searched last (the one with the
// counterexample, if any), whether only schedules with few switches were
// searched, the solver queries and the assumptions.
type pairSearch struct {
	res      *refine.Result
	prod     *ir.Program
	switches bool
	// three: a search of three requests (the limits' reasons say so).
	three       bool
	plans       int
	queries     int
	assumptions []string
	// interleavings and unreduced measure the product of every
	// interleaving, with and without the reduction.
	interleavings, unreduced uint64
}

// searchPair searches the interleavings of requests j and q (pair, as
// the reasons name them): first the schedules of interleave.Switches, one
// product each, the fewest operations first, until one breaks the
// constraint or maxUndecidedPlans are undecided; then, unless a plan
// broke the constraint, every interleaving (one product, reduced by
// interleave's partial-order reduction, its work bounded by
// fullProductMaxQueries), which decides where it can: SAFE for every
// interleaving, or a counterexample with more switches than the plans'.
// Where it cannot, the plans' outcome stands (a SAFE bounded to their
// schedules). Before, the product of every interleaving came first and
// was undecided on every case of the corpus whose search got to plans,
// after thousands of queries (adv10's p15: 545 billion interleavings).
// The whole search is bounded in work (searchlimits.go, b's queries) and
// by ctx (the result's time limit, the run).
func searchPair(ctx context.Context, j, q job, in *inputs, s *smt.Solver, cfg Config, conc dbmodel.Concurrency, b *searchBudget, pair string) (*pairSearch, error) {
	out := &pairSearch{switches: true}
	jp, qp, unpeeled := peeledRequests(j.prog, q.prog)
	plans := interleave.Switches(jp == qp, interleave.MaxOps(jp), interleave.MaxOps(qp))
	b.at("the schedule plans of " + pair)
	if err := searchPlans(ctx, out, plans, j.c, in, s, cfg, conc, b, jp, qp); err != nil {
		return nil, err
	}
	if out.res != nil && out.res.Verdict == report.Unsafe || stopped(ctx) != "" || b.left() == 0 || out.queries >= raisedQueries(cfg, pairMaxQueries) {
		if err := countInterleavings(out, cfg, in, conc, jp, qp); err != nil {
			return nil, err
		}
		noteUnpeeled(out, unpeeled)
		return out, nil
	}
	b.at("the product of every interleaving of " + pair)
	full, err := searchProduct(ctx, j.c, in, s, cfg, conc, fullProductRLimit, b, min(raisedQueries(cfg, fullProductMaxQueries), raisedQueries(cfg, pairMaxQueries)-out.queries), jp, qp)
	if err != nil {
		return nil, err
	}
	out.queries += full.queries
	out.assumptions = mergeStrings(out.assumptions, full.assumptions)
	out.interleavings, out.unreduced = full.interleavings, full.unreduced
	switch {
	case full.res.Verdict != report.Unknown:
		out.res, out.prod, out.switches = full.res, full.prod, false
	case out.res == nil:
		out.res = full.res
	case out.res.Verdict == report.Unknown:
		out.res = &refine.Result{Verdict: report.Unknown, Position: out.res.Position,
			Reason: fmt.Sprintf("%s; and the product of every interleaving: %s", out.res.Reason, full.res.Reason)}
	}
	noteUnpeeled(out, unpeeled)
	return out, nil
}

// countInterleavings records in out the interleavings of the product of
// progs, with and without the reduction, where it was not searched.
func countInterleavings(out *pairSearch, cfg Config, in *inputs, conc dbmodel.Concurrency, progs ...*ir.Program) error {
	_, err := buildProduct(out, cfg, in, conc, progs...)
	return err
}

// buildProduct returns the product of every interleaving of progs,
// reduced by interleave's partial-order reduction, and records in out its
// interleavings, with and without the reduction.
func buildProduct(out *pairSearch, cfg Config, in *inputs, conc dbmodel.Concurrency, progs ...*ir.Program) (*ir.Program, error) {
	opts := reduction(cfg, in.schema)
	opts.Snapshots = conc.FirstUpdaterWins || conc.ConsistentReads
	built, err := interleave.Build(opts, progs...)
	if err != nil {
		return nil, err
	}
	out.interleavings, out.unreduced = built.Size.Interleavings, built.Size.Interleavings
	if opts.Reduce {
		full, err := interleave.Build(interleave.Options{}, progs...)
		if err != nil {
			return nil, err
		}
		out.unreduced = full.Size.Interleavings
	}
	return built.Prog, nil
}

// searchProduct searches every interleaving of the requests progs for
// constraint c: one product, reduced by interleave's partial-order
// reduction, each solver check bounded by rlimit Z3 resource units (or
// the run's lower limit), at most maxQueries queries (and b's).
func searchProduct(ctx context.Context, c spec.Property, in *inputs, s *smt.Solver, cfg Config, conc dbmodel.Concurrency, rlimit uint, b *searchBudget, maxQueries int, progs ...*ir.Program) (*pairSearch, error) {
	out := &pairSearch{}
	prod, err := buildProduct(out, cfg, in, conc, progs...)
	if err != nil {
		return nil, err
	}
	saved := s.RLimit()
	if saved == 0 || saved > rlimit {
		if err := s.SetRLimit(rlimit); err != nil {
			return nil, err
		}
	}
	res, asm, err := checkProduct(ctx, prod, c, in, s, productConfig(cfg, min(maxQueries, b.left())), &conc)
	if rerr := s.SetRLimit(saved); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		return nil, err
	}
	b.spend(res.Stats.SMTQueries)
	if res.Verdict == report.Unknown {
		res.Reason = productLimitTerms(cfg, res.Reason)
	}
	out.res, out.prod, out.queries, out.assumptions = res, prod, res.Stats.SMTQueries, asm
	return out, nil
}

// searchPlans searches the schedule plans one product each, until one
// breaks the constraint, maxUndecidedPlans are undecided (a SAFE needs
// every plan: the others could only find a counterexample, each at the
// cost of the undecided ones — adv10's p15, a retry loop in both
// requests, had 36 plans of tens of seconds to minutes each, all
// undecided), or the pair's queries (pairMaxQueries), b's, or ctx end.
func searchPlans(ctx context.Context, out *pairSearch, plans [][]interleave.Segment, c spec.Property, in *inputs, s *smt.Solver, cfg Config, conc dbmodel.Concurrency, b *searchBudget, progs ...*ir.Program) error {
	var unknown *pairSearch
	var unknownPlan string
	undecided := 0
	b.planTotal = len(plans)
	for i, plan := range plans {
		b.plans = i
		if undecided >= maxUndecidedPlans {
			out.res = &refine.Result{Verdict: report.Unknown, Position: unknown.res.Position,
				Reason: fmt.Sprintf("%d schedule plans undecided, the first (%s): %s; the search of plans stopped there, after %d of %d plans (a SAFE needs every one)", undecided, unknownPlan, unknown.res.Reason, i, len(plans))}
			out.prod = unknown.prod
			return nil
		}
		if why := stopped(ctx); why != "" {
			out.res = &refine.Result{Verdict: report.Unknown, Reason: fmt.Sprintf("%s after %d of %d schedule plans", why, i, len(plans))}
			return nil
		}
		if limit := raisedQueries(cfg, pairMaxQueries); out.queries >= limit {
			out.res = &refine.Result{Verdict: report.Unknown, Reason: pairLimitReason(out.three, out.queries, i, len(plans), limit)}
			return nil
		}
		if b.left() == 0 {
			out.res = &refine.Result{Verdict: report.Unknown, Reason: b.queryLimitReason()}
			return nil
		}
		prod, err := interleave.ProductPlan(plan, progs...)
		if err != nil {
			return err
		}
		res, asm, err := checkProduct(ctx, prod, c, in, s, productConfig(cfg, min(raisedQueries(cfg, pairMaxQueries)-out.queries, b.left())), &conc)
		if err != nil {
			return err
		}
		out.plans++
		b.plans = i + 1
		out.queries += res.Stats.SMTQueries
		b.spend(res.Stats.SMTQueries)
		out.assumptions = mergeStrings(out.assumptions, asm)
		out.res, out.prod = res, prod
		switch res.Verdict {
		case report.Unsafe:
			return nil
		case report.Unknown:
			undecided++
			res.Reason = productLimitTerms(cfg, res.Reason)
			if unknown == nil {
				unknown, unknownPlan = &pairSearch{res: res, prod: prod}, planName(i, len(plans), plan)
			}
		}
	}
	if unknown != nil {
		res := *unknown.res
		res.Reason = fmt.Sprintf("schedule %s undecided: %s", unknownPlan, res.Reason)
		out.res, out.prod = &res, unknown.prod
	}
	return nil
}

// firstUnsupported returns the first construct the frontend could not
// model in progs (nil: none).
func firstUnsupported(progs ...*ir.Program) *ir.Unsupported {
	for _, p := range progs {
		if len(p.Unsupported) > 0 {
			return &p.Unsupported[0]
		}
	}
	return nil
}

// internalError makes r UNKNOWN because of err: "cancelled" when the run
// was interrupted (SIGINT, or its deadline stopped the solver), as for
// the other results the interruption leaves undecided, not an internal
// error (adv10 saw "internal: smt: set rlimit: solver interrupted").
func internalError(r *report.Result, err error) *report.Result {
	r.Verdict, r.Reason = report.Unknown, "internal: "+err.Error()
	if errors.Is(err, smt.ErrInterrupted) {
		r.Reason = refine.ReasonCancelled
	}
	return r
}

// checkModel lowers prog, one request, in the row model of c with
// concurrency conc and runs the configured engine on it; it returns the
// result and every assumption made. Loops with a known small trip count
// become straight-line code, as in the sequential check (verify): the
// stability check and the peers' sequential checks.
func checkModel(ctx context.Context, prog *ir.Program, c spec.Property, in *inputs, s *smt.Solver, cfg Config, conc *dbmodel.Concurrency) (*refine.Result, []string, error) {
	return lowerAndRun(ctx, prog, c, in, s, cfg, conc, true)
}

// checkProduct is checkModel of a product of requests, whose loops it
// leaves as they are: a product's loops are peeled in its requests
// before it is built, within bounds (peeledRequests); peeling the
// product would unroll, past those bounds, loops left whole on purpose.
func checkProduct(ctx context.Context, prod *ir.Program, c spec.Property, in *inputs, s *smt.Solver, cfg Config, conc *dbmodel.Concurrency) (*refine.Result, []string, error) {
	return lowerAndRun(ctx, prod, c, in, s, cfg, conc, false)
}

func lowerAndRun(ctx context.Context, prog *ir.Program, c spec.Property, in *inputs, s *smt.Solver, cfg Config, conc *dbmodel.Concurrency, peel bool) (*refine.Result, []string, error) {
	facts, _ := withCheckFacts(in.schema, c, prog, in.facts)
	low, err := dbmodel.Lower(prog, c, dbmodel.Options{Schema: in.schema, NoInferKey: cfg.NoInferKey, Facts: facts, Dialect: progDialect(cfg, prog), Concurrency: conc})
	if err != nil {
		return nil, nil, err
	}
	ir.PropagateCopies(low.Program)
	if peel {
		ir.PeelCountedLoops(low.Program, peelTrips, peelEdges(low.Program))
	}
	asm := append(append([]string(nil), prog.Assumptions...), low.Assumptions...)
	cfg.KeepBoolProg = false
	// A product's counterexample is the users' schedule: canonical, the
	// same in every run (refine.Options.Canonical).
	return runEngine(ctx, cfg, low.Program, s, !peel), asm, nil
}

// stabilityFailure says why the stability check failed.
func stabilityFailure(res *refine.Result) string {
	if res.Verdict == report.Unknown {
		return "undecided: " + res.Reason
	}
	if res.Position != "" {
		return "a value read before another request's commit may be stale at " + res.Position
	}
	return "a value read before another request's commit may be stale"
}

// fillCounterexample reads the requests, the initial rows and the
// schedule off the product's counterexample (r.Counterexample) of
// requests A (entry a), B (entry b) and, of a product of more, C….
func fillCounterexample(r *report.Result, prod *ir.Program, schema *sqlir.Schema, dialect, a, b string, more ...string) {
	r.ConcurrentWith = b
	r.Labels = append(r.Labels, report.LabelConcurrencyOnly)
	t := r.Counterexample
	if t == nil {
		return
	}
	for i, e := range append([]string{a, b}, more...) {
		name := interleave.RequestName(i)
		q := report.Request{Request: name, Entry: e, Inputs: []report.Input{}}
		for _, in := range t.Inputs {
			if rest, ok := strings.CutPrefix(in.Name, name+"."); ok {
				q.Inputs = append(q.Inputs, report.Input{Name: rest, Value: in.Value})
			}
		}
		r.Requests = append(r.Requests, q)
	}
	r.InitialRows = distinctRows(t.Rows, schema)
	r.Schedule = schedule(prod, t, dialect)
}

// distinctRows drops the rows that repeat an earlier one (a row read is
// often the watched row itself), and those with the key of an earlier
// one: a row read after another request's commit shows the values it
// read then, not its initial ones, which the watched row r (listed first)
// holds. The key is the schema's first, else a column named id.
func distinctRows(rows []report.Row, schema *sqlir.Schema) []report.Row {
	out := []report.Row{}
	seen := map[string]bool{}
	for _, r := range rows {
		k := r.Table + ":" + report.JoinValues(r.Values)
		if key := rowKey(r, schema); key != "" {
			k = r.Table + " key " + key
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// rowKey is the values of row's key columns ("" when the key is not
// known or not among the row's values).
func rowKey(row report.Row, schema *sqlir.Schema) string {
	key := []string{"id"}
	if schema != nil {
		if t := schema.Tables[strings.ToLower(row.Table)]; t != nil && len(t.Keys) > 0 {
			key = t.Keys[0]
		}
	}
	var vals []string
	for _, c := range key {
		v, ok := row.Values[strings.ToLower(c)]
		if !ok {
			v, ok = row.Values[c]
		}
		if !ok {
			return ""
		}
		vals = append(vals, c+"="+v)
	}
	return strings.Join(vals, ",")
}

// dbOp is a database operation of a product, as a trace step names it:
// its kind, SQL and handle.
type dbOp struct {
	op, sql string
	tx      ir.Tx
	txOp    bool
}

// schedule lists the database operations among t's steps, in order. A
// deadlock victim's step is marked; on MySQL it is listed after the
// step of the other request that waited for it (the model lets the
// victim fail first, the statement that closes the cycle next): InnoDB
// fails the statement that closes the cycle (of two transactions of
// equal weight), so the replay grants the other one first.
func schedule(prod *ir.Program, t *report.Counterexample, dialect string) []report.ScheduleStep {
	ops := map[[3]string]dbOp{}
	for _, e := range prod.Edges {
		info := e.Stmt.Source()
		k := [3]string{info.Request, info.Position(), info.Text}
		switch s := e.Stmt.(type) {
		case *ir.Exec:
			ops[k] = dbOp{op: "exec", sql: info.Text, tx: s.Tx}
		case *ir.Select:
			ops[k] = dbOp{op: "select", sql: info.Text, tx: s.Tx}
		case *ir.TxOp:
			ops[k] = dbOp{op: s.Op.String(), sql: strings.ToUpper(s.Op.String()), tx: s.Tx, txOp: true}
		}
	}
	out := []report.ScheduleStep{}
	count := map[string]int{}
	open := map[ir.Tx]bool{}
	for _, st := range t.Steps {
		op, ok := ops[[3]string{st.Request, st.Position, st.Text}]
		if !ok {
			continue
		}
		dl := dbmodel.DeadlockVictim(st.Request, st.Values)
		// The operation's error result (marked by the frontend) is
		// non-nil: the replay makes it fail, a BEGIN, COMMIT or ROLLBACK
		// as well as a statement; not a deadlock victim's (the schedule
		// provokes it) nor a query's that found no row.
		fails := !dl && !st.NoRows && st.Fails
		if op.txOp {
			// COMMIT or ROLLBACK of a finished transaction (a deferred
			// Rollback after Commit) does not reach the database; a
			// failed BEGIN opens nothing.
			wasOpen := open[op.tx]
			open[op.tx] = op.op == "begin" && !fails
			if op.op != "begin" && !wasOpen {
				continue
			}
		}
		count[st.Request]++
		out = append(out, report.ScheduleStep{Request: st.Request, Step: count[st.Request], Pos: st.Position,
			Op: op.op, SQL: op.sql, Args: stepArgs(st), Bound: st.SQL, Deadlock: dl, Fails: fails})
	}
	if dialect == "mysql" {
		for i := 0; i+1 < len(out); i++ {
			if out[i].Deadlock && out[i+1].Request != out[i].Request {
				out[i], out[i+1] = out[i+1], out[i]
				i++
			}
		}
	}
	return out
}

// stepArgs returns the values bound to a step's placeholders, by index
// (interleave records them as the request's argN variables).
func stepArgs(st report.Step) []string {
	type arg struct {
		n int
		v string
	}
	var args []arg
	prefix := st.Request + "." + strings.TrimSuffix(interleave.ArgName(1), "1")
	for k, v := range st.Values {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(rest); err == nil {
			args = append(args, arg{n, v})
		}
	}
	sort.Slice(args, func(i, j int) bool { return args[i].n < args[j].n })
	out := []string{}
	for _, a := range args {
		out = append(out, a.v)
	}
	return out
}

// shortName is an entry's name without its package path.
func shortName(entry string) string {
	if i := strings.LastIndexByte(entry, '/'); i >= 0 {
		entry = entry[i+1:]
	}
	return entry
}

func mergeStrings(xs, ys []string) []string {
	return dedupe(append(append([]string(nil), xs...), ys...))
}
