package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
)

// Three requests (--requests 3).
//
// A constraint every pair of requests keeps may still break with three:
// a withdrawal that takes at most half of the balance it read leaves
// B − a1 − a2 ≥ 0 when two requests read B, but three that read 2 and
// take 1 each leave −1 (adv6 p54). Where the search of pairs found
// nothing, --requests 3 searches the entry three times at once, and
// with each other entry that conflicts with it twice (the entry twice
// and the other once, the entry once and the other twice): one product
// of every interleaving each, reduced as pairs are. Where that product
// is undecided, three copies of the entry are searched in the schedules
// where each runs some of its operations and then each runs to its end
// (interleave.SwitchesOf3: the shape of every lost update of three);
// an undecided triple of different entries makes the result UNKNOWN,
// not a SAFE bounded by fewer requests.

// searchTriples searches the triples of requests of j and its peers
// once every pair kept the constraint. It reports whether it decided r
// (UNSAFE, or UNKNOWN with the reason; false: every triple keeps the
// constraint), and whether a triple was searched in the schedules of
// interleave.SwitchesOf3 only. It spends b's queries, within ctx (the
// result's time limit, verifyConcurrent).
func searchTriples(ctx context.Context, r *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config, b *searchBudget) (decided, switches bool) {
	all := triples(j, peers)
	b.pairs, b.pairsTotal = 0, 0
	for i, trio := range all {
		progs := []*ir.Program{trio[0].prog, trio[1].prog, trio[2].prog}
		for i := range progs {
			progs[i] = mysqlSerialReads(cfg, in.levels, progs[i])
		}
		names := []string{trio[0].entry, trio[1].entry, trio[2].entry}
		short := make([]string, len(names))
		for i, n := range names {
			short[i] = shortName(n)
		}
		label := strings.Join(short, " ∥ ")
		b.at(fmt.Sprintf("the 3-request search of %s (%d of %d triples)", label, i+1, len(all)))
		if why := stopped(ctx); why != "" || b.left() == 0 {
			if why == "" {
				why = b.queryLimitReason()
			}
			r.Verdict, r.Position, r.Reason = report.Unknown, "", why
			return true, switches
		}
		iso := isolationOf(cfg.Isolation, string(cfg.Dialect), in.levels, progs...)
		if gap := searchGaps(iso.Level, string(cfg.Dialect), j.c.Tables(), progs...); gap != "" {
			r.Isolation = &iso
			r.Verdict, r.Reason = report.Unknown, fmt.Sprintf("concurrent requests: every pair keeps the constraint, but the 3-request search of %s is not exact: %s", label, gap)
			return true, switches
		}
		conc := dbmodel.Concurrency{
			FirstUpdaterWins: firstUpdaterWins(iso.Level, string(cfg.Dialect)),
			ConsistentReads:  consistentReads(iso.Level, string(cfg.Dialect), j.c.Tables(), progs...),
			NextKeyLocks:     nextKeyLocks(iso.Level, string(cfg.Dialect)),
		}
		same := trio[1].entry == j.entry && trio[2].entry == j.entry
		sr, err := searchTrio(ctx, progs, same, j, in, s, cfg, conc, b)
		if err != nil {
			internalError(r, err)
			return true, switches
		}
		r.SMTQueries += sr.queries
		r.Concurrency.Interleavings = addSat(r.Concurrency.Interleavings, sr.interleavings)
		r.Concurrency.InterleavingsUnreduced = addSat(r.Concurrency.InterleavingsUnreduced, sr.unreduced)
		r.Assumptions = mergeStrings(r.Assumptions, sr.assumptions)
		r.Concurrency.SchedulePlans += sr.plans
		switches = switches || sr.switches
		if tripleOutcome(r, sr.res, sr.prod, iso, names, label, cfg, in.schema) {
			return true, switches
		}
	}
	return false, switches
}

// searchTrio searches the requests progs, three of them: the product of
// every interleaving where it has at most tripleMaxStates locations,
// and, where that is undecided or too large, for three copies of one
// entry (same), the schedule plans of interleave.SwitchesOf3, the
// fewest operations first, within searchPlans' work and time limits.
func searchTrio(ctx context.Context, progs []*ir.Program, same bool, j job, in *inputs, s *smt.Solver, cfg Config, conc dbmodel.Concurrency, b *searchBudget) (*pairSearch, error) {
	opts := reduction(cfg, in.schema)
	opts.Snapshots = conc.FirstUpdaterWins || conc.ConsistentReads
	built, err := interleave.Build(opts, progs...)
	if err != nil {
		return nil, fmt.Errorf("product of three requests: %w", err)
	}
	var sr *pairSearch
	if built.Size.States <= tripleMaxStates {
		if sr, err = searchProduct(ctx, j.c, in, s, cfg, conc, fullProductRLimit, b, raisedQueries(cfg, pairMaxQueries), progs...); err != nil {
			return nil, err
		}
	} else {
		sr = &pairSearch{res: &refine.Result{Verdict: report.Unknown,
			Reason: fmt.Sprintf("abstract state limit of the 3-request search: the product of every interleaving has %d locations (limit %d), not searched as a whole", built.Size.States, tripleMaxStates)}}
	}
	sr.three = true
	if sr.res.Verdict == report.Unknown && same && ctx.Err() == nil {
		sr.switches = true
		err = searchPlans(ctx, sr, interleave.SwitchesOf3(interleave.MaxOps(j.prog)), j.c, in, s, cfg, conc, b, progs...)
	}
	return sr, err
}

// tripleOutcome records the outcome res of the 3-request search of the
// requests names (label) in r; false when they keep the constraint.
func tripleOutcome(r *report.Result, res *refine.Result, prod *ir.Program, iso report.Isolation, names []string, label string, cfg Config, schema *sqlir.Schema) bool {
	switch res.Verdict {
	case report.Safe:
		return false
	case report.Unsafe:
		r.Isolation = &iso
		if iso.Level == Serializable && string(cfg.Dialect) == "postgres" {
			r.Verdict, r.Position = report.Unknown, res.Position
			r.Reason = fmt.Sprintf("concurrent requests %s: a schedule breaks the constraint under REPEATABLE READ's first-updater-wins, but SERIALIZABLE (SSI) may abort it: may be spurious", label)
			return true
		}
		setOutcome(r, res)
		r.Concurrency.Scope = report.ScopeSearch3
		r.Reason = fmt.Sprintf("three concurrent requests (%s) break the constraint; each alone, and every pair, keeps it", label)
		fillCounterexample(r, prod, schema, string(cfg.Dialect), names[0], names[1], names[2])
		return true
	}
	r.Verdict, r.Position = report.Unknown, res.Position
	r.Reason = fmt.Sprintf("concurrent requests: every pair keeps the constraint; the 3-request search of %s: %s", label, res.Reason)
	return true
}

// triples returns the triples --requests 3 searches: j three times, then
// j twice with each other peer, and j with each other peer twice.
func triples(j job, peers []job) [][3]job {
	out := [][3]job{{j, j, j}}
	for _, q := range peers {
		if q.entry == j.entry {
			continue
		}
		out = append(out, [3]job{j, j, q}, [3]job{j, q, q})
	}
	return out
}

// scopeWithTriples is the scope of a SAFE whose pairs were searched
// within scope pairs and whose triples kept the constraint too (some
// only in the schedules of interleave.SwitchesOf3: switches).
func scopeWithTriples(pairs string, switches bool) string {
	if pairs == report.ScopeBounded && !switches {
		return report.ScopeBounded3
	}
	out := pairs + "; and 3 requests"
	if switches {
		out += ", schedules in which each runs some of its operations, then each to its end"
	}
	return out
}
