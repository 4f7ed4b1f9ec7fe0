package refine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// ProofLoopFree is Result.Proof of a SAFE that CheckLBE decided with one
// unsatisfiable formula: there is no invariant to show, every path was
// covered exactly.
const ProofLoopFree = "decided by one bounded path formula over all paths (loop-free: no predicates needed)"

// ProofJoinInvariants is Result.Proof of a SAFE that CheckLBE decided by
// the first pass on a large loop-free block (joinInvariants): the
// constraint's own atoms, inductive from join to join, exclude every edge
// into Error.
const ProofJoinInvariants = "decided by invariants at the joins of the loop-free block (the constraint's atoms, inductive from join to join; no predicates needed)"

// ProofNoPath is Result.Proof when no path of the program reaches a check
// at all.
const ProofNoPath = "no path of the program reaches a violation check"

// EngineLoops is Result.Engine of a program whose loops CheckLBE
// abstracted at their heads ("lbe" alone: loop-free, one formula).
const EngineLoops = "lbe (loops: predicates at loop heads)"

// maxApproxRetries bounds how many counterexamples that read an
// over-approximated value CheckLBE excludes, looking for one that does
// not, before it answers UNKNOWN "may be spurious".
const maxApproxRetries = 16

// CheckLBE is the large-block engine (--engine lbe; Beyer et al., FMCAD
// 2009): the part of p that can reach Error (its error cone), when it has
// no loop, is one block, encoded as one formula (buildDAG) that is
// satisfiable iff some execution reaches Error. One query decides it:
// unsatisfiable, SAFE (Result.Proof says so; there are no predicates);
// satisfiable, the model selects a path, whose path formula (vcgen.Build)
// is validated with the model's values (vcgen.Validate) and becomes the
// trace, exactly as Check's counterexamples do. A path that reads an
// over-approximated value is excluded and the query repeated (up to
// maxApproxRetries), so UNSAFE is only given for a path that reads none.
//
// A cone with loops is abstracted at its cut points only (Entry, loop
// heads, Error; checkLoops): each block between two cut points is one
// formula, its abstract post the cubes over the predicates (AllSAT), and
// a spurious block path, unrolled into one loop-free program, gives
// predicates at the cut points it crosses. When that gives up (a limit,
// no new predicate), Check runs (Result.Engine says so).
func CheckLBE(ctx context.Context, p *ir.Program, s *smt.Solver, opt Options) *Result {
	return withContext(ctx, s, opt, func(opt Options) *Result { return checkLBE(p, s, opt) })
}

// checkLBE is CheckLBE without the context.
func checkLBE(p *ir.Program, s *smt.Solver, opt Options) (res *Result) {
	opt = opt.withDefaults()
	start := time.Now()
	res = &Result{Engine: "lbe"}
	var before smt.Stats
	if s != nil {
		before = s.Stats()
	}
	defer func() {
		r := recover()
		if res = settle(res, r, s, before, start); r != nil {
			res.Engine = "lbe"
		}
	}()
	if p == nil || s == nil {
		return res.fail("internal: no program or no solver")
	}
	if len(p.Unsupported) > 0 {
		u := p.Unsupported[0]
		res.fail("unsupported: " + u.What)
		res.Position = u.Position()
		return res
	}
	if err := ir.Sanity(p); err != nil {
		return res.fail("internal: invalid program: " + err.Error())
	}
	locs, edges := errorCone(p)
	if !locs[p.Entry] {
		res.Verdict, res.Proof = Safe, ProofNoPath
		return res
	}
	late := func() bool { return opt.Timeout > 0 && time.Since(start) > opt.Timeout }
	if _, ok := topoOrder(p, locs, edges); !ok {
		res.Engine = EngineLoops
		if final := checkLoops(p, s, opt, res, late); final || late() {
			return res
		}
		// The large blocks gave up (a limit, no new predicate): the
		// per-statement engine may still decide.
		why, grew, grewAt := res.Reason, res.grew, res.grewAt
		fixpointOpt := opt
		if opt.Timeout > 0 {
			fixpointOpt.Timeout = opt.Timeout - time.Since(start)
		}
		r := check(p, s, fixpointOpt)
		stats := res.Stats
		*res = *r
		res.Stats = stats
		res.Stats.Iterations += r.Stats.Iterations
		res.Stats.States += r.Stats.States
		res.Stats.AbstractionSeconds += r.Stats.AbstractionSeconds
		res.Engine = "fixpoint (lbe gave up: " + why + ")"
		withGrowth(res, grew, grewAt)
		return res
	}
	res.Stats.Iterations = 1
	if opt.KeepBoolProg {
		res.BoolProg = fmt.Sprintf("// large-block program: no loop can reach a check; one block L%d -> L%d (%d edges), decided by one formula\n", p.Entry, p.Error, len(edges))
	}
	spent := func() bool { return s.Stats().Queries-before.Queries > opt.MaxQueries }
	o := decideDAG(p, s, late, spent, minJoinsForInvariants, opt.Canonical)
	switch o.verdict {
	case Safe:
		res.Verdict, res.Proof = Safe, ProofLoopFree
		if o.byInvariants {
			res.Proof = ProofJoinInvariants
		}
	case Unsafe:
		res.Verdict, res.Trace, res.Position = Unsafe, o.trace, o.position
	default:
		res.fail(o.reason)
		res.Position = o.position
	}
	return res
}

// dagOutcome is what one formula says about a loop-free program: Safe (no
// execution reaches Error), Unsafe (with a validated trace) or Unknown.
type dagOutcome struct {
	verdict  Verdict
	reason   string
	position string
	trace    *report.Counterexample
	// spurious: UNKNOWN because every counterexample found reads
	// over-approximated values.
	spurious bool
	// reread: spurious only because two reads of the same rows disagree
	// in every counterexample found (vcgen.PathFormula.RereadRows), even
	// solved again to agree.
	reread bool
	// byInvariants: SAFE by joinInvariants, without the one formula.
	byInvariants bool
}

// decideDAG decides whether Error is reachable in q, whose error cone must
// be loop-free, with one formula (buildDAG). A model's path is validated
// (vcgen.Validate, with the model's values) and traced; a path that reads
// an over-approximated value is excluded and the query repeated, up to
// maxApproxRetries times; with canonical, the counterexample's values
// are canonicalModel's. late reports the wall-clock limit, spent the
// query limit (which stops joinInvariants: its pass is linear in the
// cone, but on the product of two requests' interleavings that is
// thousands of queries). A cone with
// at least minJoins joins is first given to joinInvariants, which may
// prove it SAFE without the one formula and otherwise gives it lemmas.
func decideDAG(q *ir.Program, s *smt.Solver, late, spent func() bool, minJoins int, canonical bool) dagOutcome {
	fail := func(reason string) dagOutcome { return dagOutcome{verdict: Unknown, reason: reason} }
	locs, edges := errorCone(q)
	if !locs[q.Entry] {
		return dagOutcome{verdict: Safe}
	}
	order, ok := topoOrder(q, locs, edges)
	if !ok {
		return fail("internal: the error cone has a loop")
	}
	d, err := buildDAGMerging(q, order, edges, false)
	if err != nil {
		return fail("internal: " + err.Error())
	}
	parts := d.Parts
	if countJoins(d, order) >= minJoins {
		jr, err := joinInvariants(d, order, s, func() bool { return late() || spent() })
		if err != nil {
			return fail("solver: " + err.Error())
		}
		if jr.safe {
			return dagOutcome{verdict: Safe, byInvariants: true}
		}
		// What the pass proved holds on every execution: the one
		// formula may assume it, and its search needs these atoms.
		parts = append(parts[:len(parts):len(parts)], jr.lemmas...)
	}
	s.Push()
	defer s.Pop()
	for _, f := range parts {
		if err := s.Assert(f); err != nil {
			return fail("solver: " + err.Error())
		}
	}
	var firstNotes []string
	var firstPos string
	allReread := true // every note so far is RereadRows'
	for try := 0; ; try++ {
		if late() {
			return fail("time limit reached (wall clock, the safety net)")
		}
		r, err := s.Check()
		if err != nil {
			return fail("solver: " + err.Error())
		}
		switch r {
		case smt.Unknown:
			return fail(fmt.Sprintf("solver answered unknown (%s) on the loop-free path formula", s.ReasonUnknown()))
		case smt.Unsat:
			if firstNotes != nil {
				// Every counterexample reads an approximated value.
				return spuriousOutcome(firstNotes, firstPos, allReread)
			}
			return dagOutcome{verdict: Safe}
		}
		raw, err := s.Model()
		m := raw
		if err == nil {
			m, err = s.NiceModel(raw, niceScale)
		}
		if err != nil {
			return fail("solver: " + err.Error())
		}
		path, err := d.Path(m)
		if err != nil {
			// The nicer model's re-solves may leave the path's selectors
			// out (corpus pg_gin_withdraw_conflict_unsafe, a schedule
			// plan: "the model selects no edge into L2"); the solver's
			// own model selects one. Validation below checks either.
			if p, rerr := d.Path(raw); rerr == nil {
				path, m, err = p, raw, nil
			}
		}
		if err != nil {
			return fail("internal: " + err.Error())
		}
		pf, err := vcgen.Build(q, path)
		if err != nil {
			return fail("internal: " + err.Error())
		}
		var pm vcgen.Model = d.modelFor(pf, m)
		var notes []string
		reread := false // notes is only RereadRows' note
		var dz *vcgen.DivisionByZero
		switch err := vcgen.Validate(pf, pm); {
		case errors.As(err, &dz):
			// x / 0 is unconstrained there: like an approximated value,
			// the counterexample may be spurious; look for another.
			notes = []string{dz.Note()}
		case err != nil:
			return fail("internal: counterexample failed validation: " + err.Error())
		default:
			notes = pf.ApproxReads()
			var note string
			if pm, note, err = agreeingReads(s, pf, pm); err != nil {
				return fail("solver: " + err.Error())
			} else if note != "" {
				reread = len(notes) == 0
				notes = append(notes, note)
			}
		}
		pos := path[len(path)-1].Stmt.Source().Position()
		if len(notes) > 0 {
			if firstNotes == nil {
				firstNotes, firstPos = notes, pos
			}
			allReread = allReread && reread
			if try >= maxApproxRetries {
				return spuriousOutcome(firstNotes, firstPos, allReread)
			}
			if err := s.Assert(d.block(path)); err != nil {
				return fail("solver: " + err.Error())
			}
			continue
		}
		if canonical {
			pm = canonicalModel(pf, pm)
		}
		t, err := report.BuildTrace(pf, pm)
		if err != nil {
			return fail("internal: " + err.Error())
		}
		return dagOutcome{verdict: Unsafe, trace: t, position: pos}
	}
}

// spuriousOutcome is the UNKNOWN of a counterexample that reads values
// the model over-approximates (notes, as vcgen.PathFormula.ApproxReads
// gives them) at the check at pos.
func spuriousOutcome(notes []string, pos string, reread bool) dagOutcome {
	return dagOutcome{verdict: Unknown, position: pos, spurious: true, reread: reread, reason: spuriousReason(notes)}
}

// spuriousReason is the reason of a counterexample that reads the values
// notes name, which the model over-approximates: both of two are named
// (the second is often the one the user knows to be constrained, e.g. a
// captured variable behind a parsed input), the first of more.
func spuriousReason(notes []string) string {
	reads := notes[0]
	switch {
	case len(notes) == 2:
		reads += ", and " + notes[1]
	case len(notes) > 2:
		reads += fmt.Sprintf(" (and %d more)", len(notes)-1)
	}
	return "a counterexample was found, but it reads " + reads + ": it may be spurious"
}
