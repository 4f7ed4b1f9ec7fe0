package refine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbverify/dbverify/abstraction"
	"github.com/dbverify/dbverify/boolprog"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// Options tunes Check; zero fields take the defaults.
type Options struct {
	MaxRefinements int       // refinements before giving up (default 20)
	Seeds          []ir.Expr // extra initial predicates
	KeepBoolProg   bool      // keep the last boolean program, printed, in Result.BoolProg
	MaxPredicates  int       // predicates before giving up (default 150)
	// MaxStates stops refining once one search of the boolean program
	// has explored more abstract states (default 1,000,000): the next
	// abstraction, with more predicates, would most likely be larger.
	MaxStates int
	// Timeout bounds the wall time of Check, checked between its phases
	// (an abstraction or a search under way is not interrupted; default
	// 2 minutes; negative: none).
	Timeout time.Duration
	// MaxQueries stops refining once Check (or CheckLBE) has asked more
	// SMT queries (default 100,000, five times what the corpus's hardest decided result needs): a limit in work, so that the same
	// input gets the same verdict however busy the machine is; checked
	// between phases.
	MaxQueries  int
	Abstraction abstraction.Options
	// Canonical makes a counterexample of the loop-free engine a function
	// of its path formula, not of the solver's state (canonicalModel):
	// the concurrent search's, whose values differed run to run.
	Canonical bool
}

// The default work limits of Options: the corpus's hardest decided
// result needs about a fifth of each (benchmarks/RESULTS.md).
const (
	DefaultMaxRefinements = 20
	DefaultMaxPredicates  = 150
	DefaultMaxStates      = 1000000
	DefaultMaxQueries     = 100000
)

func (o Options) withDefaults() Options {
	if o.MaxRefinements <= 0 {
		o.MaxRefinements = DefaultMaxRefinements
	}
	if o.MaxPredicates <= 0 {
		o.MaxPredicates = DefaultMaxPredicates
	}
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.MaxQueries <= 0 {
		o.MaxQueries = DefaultMaxQueries
	}
	return o
}

// Verdict is the answer of Check (the verdict of package report's schema).
type Verdict = report.Verdict

const (
	Safe    = report.Safe    // Error is unreachable: proved for all inputs and databases
	Unsafe  = report.Unsafe  // a feasible, validated counterexample reaches Error
	Unknown = report.Unknown // neither: Reason says why
)

// Result is the outcome of Check.
type Result struct {
	Verdict     Verdict
	Reason      string                 // why UNKNOWN (empty otherwise)
	Position    string                 // UNSAFE: the violated check; UNKNOWN: the construct at fault, if any
	Refinements int                    // refinements made
	Predicates  []string               // the predicates of the last abstraction (SAFE: the invariant's vocabulary)
	Trace       *report.Counterexample // UNSAFE: the counterexample
	BoolProg    string                 // the last boolean program, if Options.KeepBoolProg
	// Proof, for a SAFE without predicates, says how it was decided
	// (ProofLoopFree, ProofNoPath).
	Proof string
	// Engine names the engine that decided, when CheckLBE chose it
	// ("lbe", or "fixpoint (…)" for a program with a loop).
	Engine string
	Stats  Stats
	// grew and grewAt are where the large-block search grew when a
	// limit of work stopped it, and that loop's position (grew.go): the
	// fixpoint engine that CheckLBE runs after it reports them with its
	// own limit.
	grew, grewAt string
}

// Stats is the work of one Check.
type Stats struct {
	SMTQueries         int     // Z3 checks (abstraction and feasibility)
	States             int     // abstract states explored, over all iterations
	Seconds            float64 // wall time
	AbstractionSeconds float64 // building boolean programs
	SolverSeconds      float64 // inside Z3
	// SolverUnits is the work inside Z3, in its deterministic resource
	// units (what smt.Solver.SetRLimit bounds per check).
	SolverUnits uint64
	Iterations  int // abstract-check rounds
}

// Check runs the CEGAR loop of docs/design.md §3 on the lowered program p:
//
//	preds := atoms of the conditions on the edges into Error, plus Seeds
//	loop: abstract p over preds; search the boolean program for Error;
//	      none: SAFE; else replay the path on p with the solver, step by
//	      step: feasible: validate the model, UNSAFE; infeasible: add the
//	      predicates of its shortest infeasible prefix and loop.
//
// It never panics and never prints: errors of the lower layers, solver
// timeouts, the refinement and predicate limits, and a refinement that
// finds nothing new all give UNKNOWN with a reason. An UNSAFE verdict is
// only given for a counterexample that vcgen.Validate accepts.
func Check(ctx context.Context, p *ir.Program, s *smt.Solver, opt Options) *Result {
	return withContext(ctx, s, opt, func(opt Options) *Result { return check(p, s, opt) })
}

// check is Check without the context.
func check(p *ir.Program, s *smt.Solver, opt Options) (res *Result) {
	opt = opt.withDefaults()
	start := time.Now()
	res = &Result{}
	var before smt.Stats
	if s != nil {
		before = s.Stats()
	}
	defer func() { res = settle(res, recover(), s, before, start) }()
	if p == nil || s == nil {
		return unknown("internal: no program or no solver")
	}
	if len(p.Unsupported) > 0 {
		u := p.Unsupported[0]
		r := unknown("unsupported: " + u.What)
		r.Position = u.Position()
		return r
	}
	if err := ir.Sanity(p); err != nil {
		return unknown("internal: invalid program: " + err.Error())
	}

	preds := newPredSet()
	for _, e := range p.Edges {
		if a, ok := e.Stmt.(*ir.Assume); ok && e.To == p.Error {
			preds.addAtoms(a.Cond)
		}
	}
	for _, e := range opt.Seeds {
		preds.add(e)
	}
	abs := abstraction.New(s, opt.Abstraction)
	late := func() bool { return opt.Timeout > 0 && time.Since(start) > opt.Timeout }
	for {
		if late() {
			return res.fail(fmt.Sprintf("time limit %s reached (wall clock, the safety net)", opt.Timeout))
		}
		if q := s.Stats().Queries - before.Queries; q > opt.MaxQueries {
			return res.fail(fmt.Sprintf("SMT query limit %d reached (%d queries)", opt.MaxQueries, q))
		}
		if preds.len() > opt.MaxPredicates {
			return res.fail(fmt.Sprintf("predicate limit %d reached", opt.MaxPredicates))
		}
		res.Stats.Iterations++
		a, err := abs.BuildWithin(p, preds.list, opt.MaxQueries-(s.Stats().Queries-before.Queries))
		if err != nil {
			return res.fail(buildFailure(err, s, before, opt))
		}
		res.Stats.AbstractionSeconds += a.Stats.Seconds
		res.Predicates = res.Predicates[:0]
		for _, q := range a.Preds {
			res.Predicates = append(res.Predicates, q.Text)
		}
		if opt.KeepBoolProg {
			res.BoolProg = a.Prog.String()
		}
		if late() {
			return res.fail(fmt.Sprintf("time limit %s reached", opt.Timeout))
		}
		lim := boolprog.Limits{MaxStates: opt.MaxStates}
		if opt.Timeout > 0 {
			lim.Deadline = start.Add(opt.Timeout)
		}
		tr, st, err := boolprog.ReachWithin(a.Prog, lim)
		res.Stats.States += st.States
		if err != nil {
			return res.fail(fmt.Sprintf("%v with %d predicates", err, len(a.Preds)))
		}
		if tr == nil {
			res.Verdict = Safe
			return res
		}
		path, err := a.Path(p, tr)
		if err != nil {
			return res.fail("internal: " + err.Error())
		}
		if done := res.concretize(p, s, path, preds, opt); done {
			return res
		}
	}
}

// buildFailure is the reason of a failed abstraction build: the query
// limit in the words of the loop's own check, or the build's error.
func buildFailure(err error, s *smt.Solver, before smt.Stats, opt Options) string {
	var ql *abstraction.QueryLimitError
	if errors.As(err, &ql) {
		return fmt.Sprintf("SMT query limit %d reached (%d queries)", opt.MaxQueries, s.Stats().Queries-before.Queries)
	}
	return err.Error()
}

// concretize replays an abstract counterexample on the concrete program:
// feasible, it makes res UNSAFE with the validated trace; infeasible, it
// adds the predicates of the shortest infeasible prefix and counts a
// refinement. It reports whether res is final (UNSAFE, or UNKNOWN because
// the solver gave up, a limit was reached or nothing new was found).
func (res *Result) concretize(p *ir.Program, s *smt.Solver, path []*ir.Edge, preds *predSet, opt Options) (done bool) {
	pf, err := vcgen.Build(p, path)
	if err != nil {
		res.fail("internal: " + err.Error())
		return true
	}
	fe, err := feasible(s, pf)
	if err != nil {
		res.fail("solver: " + err.Error())
		return true
	}
	switch fe.result {
	case smt.Unknown:
		res.fail(fmt.Sprintf("solver answered unknown (%s) on the path through %s", s.ReasonUnknown(), where(path[fe.step])))
		res.Position = path[fe.step].Stmt.Source().Position()
		return true
	case smt.Sat:
		var dz *vcgen.DivisionByZero
		if err := vcgen.Validate(pf, fe.model); errors.As(err, &dz) {
			res.fail("a counterexample was found, but it reads " + dz.Note() + ": it may be spurious")
			res.Position = dz.Position
			return true
		} else if err != nil {
			res.fail("internal: counterexample failed validation: " + err.Error())
			return true
		}
		notes := pf.ApproxReads()
		model, note, err := agreeingReads(s, pf, fe.model)
		if err != nil {
			res.fail("solver: " + err.Error())
			return true
		}
		if note != "" {
			notes = append(notes, note)
		}
		t, err := report.BuildTrace(pf, model)
		if err != nil {
			res.fail("internal: " + err.Error())
			return true
		}
		if len(notes) > 0 {
			// The path's feasibility rests on a value the model only
			// over-approximates: the trace may be impossible.
			res.fail(spuriousReason(notes))
			if len(path) > 0 {
				res.Position = path[len(path)-1].Stmt.Source().Position()
			}
			return true
		}
		res.Verdict = Unsafe
		res.Trace = t
		if len(path) > 0 {
			res.Position = path[len(path)-1].Stmt.Source().Position()
		}
		return true
	}
	// Spurious: refine with the shortest infeasible prefix.
	if res.Refinements >= opt.MaxRefinements {
		res.fail(fmt.Sprintf("refinement limit %d reached", opt.MaxRefinements))
		return true
	}
	// First the cheap predicates (the conditions the prefix assumes), then,
	// when they do not remove the spurious path, the whole WP chain: the
	// chain's atoms grow with the number of updates it crosses, so adding
	// them only when needed keeps predicate sets small.
	added := 0
	for _, e := range assumedAtoms(path[:fe.step+1]) {
		if preds.add(e) {
			added++
		}
	}
	if added == 0 {
		for _, e := range NewPredicates(path[:fe.step+1]) {
			if preds.add(e) {
				added++
			}
		}
	}
	if added == 0 {
		res.fail(fmt.Sprintf("refinement found no new predicate: the abstract counterexample is infeasible at %s, but the predicates of its prefix are all tracked", where(path[fe.step])))
		return true
	}
	res.Refinements++
	return false
}

func unknown(reason string) *Result {
	return &Result{Verdict: Unknown, Reason: reason}
}

// fail turns res into UNKNOWN with reason, keeping its statistics and
// predicates.
func (res *Result) fail(reason string) *Result {
	res.Verdict = Unknown
	res.Reason = reason
	return res
}

// feasibility is the answer for one path: Sat with a model, Unsat at the
// first step whose prefix is infeasible, or Unknown at the step where the
// solver gave up.
type feasibility struct {
	result smt.Result
	step   int
	model  *smt.Model
}

// feasible asserts the steps of pf one scope each, checking after every
// Assume step and at the end, so that an infeasible path is cut at its
// shortest infeasible prefix. The solver's scopes are restored.
func feasible(s *smt.Solver, pf *vcgen.PathFormula) (fe feasibility, err error) {
	depth := 0
	defer func() {
		for ; depth > 0; depth-- {
			s.Pop()
		}
	}()
	n := len(pf.Steps)
	if n == 0 {
		return feasibility{}, fmt.Errorf("empty path")
	}
	for i, st := range pf.Steps {
		s.Push()
		depth++
		if err := s.Assert(st.Constraint); err != nil {
			return feasibility{}, err
		}
		if _, ok := st.Edge.Stmt.(*ir.Assume); !ok && i < n-1 {
			continue // assignments and havocs of fresh versions keep a prefix feasible
		}
		r, err := s.Check()
		if err != nil {
			return feasibility{}, err
		}
		switch r {
		case smt.Unsat, smt.Unknown:
			return feasibility{result: r, step: i}, nil
		}
		if i == n-1 {
			m, err := s.Model()
			if err == nil {
				m, err = s.NiceModel(m, niceScale)
			}
			if err != nil {
				return feasibility{}, err
			}
			return feasibility{result: smt.Sat, step: i, model: m}, nil
		}
	}
	return feasibility{}, fmt.Errorf("internal: path checked without a verdict")
}

// niceScale is the denominator a counterexample's fractions get when the
// formula allows: cents (see smt.NiceModel).
const niceScale = 100

// NewPredicates returns the predicates that refute the infeasible path
// prefix (its last edge is where it became infeasible): the atoms of the
// weakest-precondition chain from the last edge's condition back to the
// start, plus the atoms of every Assume on the prefix. Going backwards
// through an Assign the atoms are substituted (simultaneously); through an
// Assume c the chain is c → φ, so c's atoms join it; through a Havoc the
// atoms mentioning a havoced variable are dropped (the chain cannot talk
// about the value before). Atoms are canonical (abstraction.Canonical) and
// deduplicated, in order of discovery.
func NewPredicates(prefix []*ir.Edge) []ir.Expr {
	out := newPredSet()
	var chain []ir.Expr
	join := func(es []ir.Expr) {
		seen := map[string]bool{}
		var next []ir.Expr
		for _, e := range append(chain, es...) {
			for _, a := range ir.Atoms(e) {
				q := abstraction.NewPredicate(a)
				if q == nil || seen[q.Text] {
					continue
				}
				seen[q.Text] = true
				next = append(next, q.Expr)
			}
		}
		chain = next
		for _, e := range chain {
			out.add(e)
		}
	}
	for i := len(prefix) - 1; i >= 0; i-- {
		switch s := prefix[i].Stmt.(type) {
		case *ir.Assume:
			if s.Kind != ir.KindFact {
				join([]ir.Expr{s.Cond})
			}
		case *ir.Assign:
			m := make(map[*ir.Var]ir.Expr, len(s.Lhs))
			for k, v := range s.Lhs {
				if k < len(s.Rhs) {
					m[v] = s.Rhs[k]
				}
			}
			old := chain
			chain = nil
			subst := make([]ir.Expr, len(old))
			for k, a := range old {
				subst[k] = ir.Substitute(a, m)
			}
			join(subst)
		case *ir.Havoc:
			set := map[*ir.Var]bool{}
			for _, v := range s.Vars {
				set[v] = true
			}
			chain = eliminate(chain, s.Vars, set)
			join(nil)
			kept := chain[:0:0]
			for _, a := range chain {
				if !ir.Mentions(a, set) {
					kept = append(kept, a)
				}
			}
			chain = kept
		}
	}
	return out.list
}

// eliminate substitutes, for each variable x of vars in turn, every
// definition x == e (e free of set) found among the atoms of chain into
// the atoms that mention x. The atoms are candidates, not facts (a branch
// condition may be false on the path), so every definition is used; the
// chain is capped at maxChain atoms.
func eliminate(chain []ir.Expr, vars []*ir.Var, set map[*ir.Var]bool) []ir.Expr {
	const maxChain = 256
	for _, x := range vars {
		var defs []ir.Expr
		for _, a := range chain {
			if e, ok := abstraction.Solve(a, x); ok && !ir.Mentions(e, set) {
				defs = append(defs, e)
			}
		}
		one := map[*ir.Var]bool{x: true}
		if len(defs) == 0 {
			chain = append(chain, fourierMotzkin(chain, x, one)...)
			continue
		}
		next := make([]ir.Expr, 0, len(chain))
		for _, a := range chain {
			if !ir.Mentions(a, one) {
				next = append(next, a)
			}
		}
		for _, e := range defs {
			m := map[*ir.Var]ir.Expr{x: e}
			for _, a := range chain {
				if ir.Mentions(a, one) && len(next) < maxChain {
					next = append(next, ir.Substitute(a, m))
				}
			}
		}
		chain = next
	}
	return chain
}

// maxFM bounds the atoms one Fourier-Motzkin elimination adds.
const maxFM = 16

// fourierMotzkin returns the comparisons of the bounds on x that the
// inequalities of chain mentioning x give pairwise (abstraction.Combine):
// the loop invariant r.booked + free <= r.capacity comes from
// r.booked + w.seats <= r.capacity and w.seats <= free when w.seats is
// read afresh in each iteration.
func fourierMotzkin(chain []ir.Expr, x *ir.Var, one map[*ir.Var]bool) []ir.Expr {
	var with []ir.Expr
	for _, a := range chain {
		if b, ok := a.(*ir.Binary); ok && (b.Op == ir.OpLe || b.Op == ir.OpGe) && ir.Mentions(a, one) {
			with = append(with, a)
		}
	}
	var out []ir.Expr
	for i := 0; i < len(with) && len(out) < maxFM; i++ {
		for j := i + 1; j < len(with) && len(out) < maxFM; j++ {
			if le, ge, ok := abstraction.Combine(with[i], with[j], x); ok {
				out = append(out, le, ge)
			}
		}
	}
	return out
}

// assumedAtoms returns the atoms of the conditions the prefix assumes.
func assumedAtoms(prefix []*ir.Edge) []ir.Expr {
	var out []ir.Expr
	for _, e := range prefix {
		if a, ok := e.Stmt.(*ir.Assume); ok && a.Kind != ir.KindFact {
			out = append(out, ir.Atoms(a.Cond)...)
		}
	}
	return out
}

// predSet is an ordered set of canonical predicates.
type predSet struct {
	list []ir.Expr
	keys map[string]bool
}

func newPredSet() *predSet { return &predSet{keys: map[string]bool{}} }

func (ps *predSet) len() int { return len(ps.list) }

// add adds the predicate of e; it reports whether it was new.
func (ps *predSet) add(e ir.Expr) bool {
	q := abstraction.NewPredicate(e)
	if q == nil || ps.keys[q.Text] {
		return false
	}
	ps.keys[q.Text] = true
	ps.list = append(ps.list, q.Expr)
	return true
}

func (ps *predSet) addAtoms(e ir.Expr) {
	for _, a := range ir.Atoms(e) {
		ps.add(a)
	}
}

func where(e *ir.Edge) string {
	s := e.Stmt.String()
	if pos := e.Stmt.Source().Position(); pos != "" {
		s += " (" + pos + ")"
	}
	return s
}

// settle finishes a check's result: a panic (r, from recover) becomes
// UNKNOWN with the statistics gathered so far, and the time and the solver
// work since before are recorded.
func settle(res *Result, r any, s *smt.Solver, before smt.Stats, start time.Time) *Result {
	if r != nil {
		stats := res.Stats
		res = unknown(fmt.Sprintf("internal: panic: %v", r))
		res.Stats = stats
	}
	res.Stats.Seconds = time.Since(start).Seconds()
	if s != nil {
		after := s.Stats()
		res.Stats.SMTQueries = after.Queries - before.Queries
		res.Stats.SolverSeconds = after.Seconds - before.Seconds
		res.Stats.SolverUnits = after.RLimitUnits - before.RLimitUnits
	}
	return res
}
