package pipeline

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/vcgen"
)

// Concurrency is what a --concurrent verdict adds to a result: how it was
// decided and, for a concurrent counterexample, the requests and the
// schedule of their database operations.
type Concurrency struct {
	Isolation Isolation
	// Proved: SAFE by the stability check, for any number of concurrent
	// requests. Bounded: SAFE by the search of every pair of two requests
	// (PairsSearched of them).
	Proved, Bounded bool
	PairsSearched   int
	// StabilityFailed says why the stability check did not prove the
	// entry (when the search ran).
	StabilityFailed string
	// AlsoSequential: the entry is UNSAFE (or UNKNOWN) called alone; the
	// concurrent stages did not run.
	AlsoSequential bool
	// For a concurrent counterexample: the second request's entry, the
	// requests with their inputs, the initial rows and the schedule.
	// ConcurrencyOnly: the entry is SAFE when its calls run one after
	// another.
	ConcurrentWith  string
	ConcurrencyOnly bool
	Requests        []RequestRun
	InitialRows     []vcgen.Row
	Schedule        []ScheduleStep
}

// RequestRun is one request of a concurrent counterexample.
type RequestRun struct {
	Request string
	Entry   string
	Inputs  []vcgen.Binding
}

// ScheduleStep is one database operation of a concurrent counterexample,
// in the order executed.
type ScheduleStep struct {
	Request string
	Step    int    // the operation's number within its request, from 1
	Pos     string // file:line
	Op      string // begin, exec, select, commit, rollback
	SQL     string
	Args    []string
}

// peer is an entry that may run concurrently with the one checked.
type peer struct {
	entry string
	prog  *ir.Program
}

// verifyConcurrent decides (entry, c) for concurrent requests, given the
// sequential result seq: an entry UNSAFE or UNKNOWN alone keeps that
// verdict; otherwise the stability check (Concurrency.Interference) is
// tried first, and where it fails, every pair of the entry with a peer
// (itself included) is searched as a product program.
func verifyConcurrent(seq *Result, entry string, prog *ir.Program, peers []peer, c spec.Property, schema *sqlir.Schema, facts []spec.Fact, s *smt.Solver, cfg Config) *Result {
	start := time.Now()
	iso := isolationOf(cfg.Isolation, cfg.Dialect, cfg.Dir, prog)
	seq.Concurrency = &Concurrency{Isolation: iso}
	if seq.Verdict != refine.Safe {
		seq.Concurrency.AlsoSequential = true
		return seq
	}
	r := &Result{Entry: seq.Entry, EntryPosition: seq.EntryPosition, Constraint: seq.Constraint, Concurrency: seq.Concurrency}
	defer func() { r.Seconds = seq.Seconds + time.Since(start).Seconds() }()
	st, assumptions, err := checkModel(prog, c, schema, facts, s, cfg, &dbmodel.Concurrency{Interference: true})
	if err != nil {
		r.Verdict, r.Reason = refine.Unknown, "internal: "+err.Error()
		return r
	}
	r.SMTQueries += st.Stats.SMTQueries
	if st.Verdict == refine.Safe {
		r.Verdict, r.Trace, r.Predicates, r.Refinements = refine.Safe, st, st.Predicates, st.Refinements
		r.Assumptions = assumptions
		r.Concurrency.Proved = true
		return r
	}
	r.Concurrency.StabilityFailed = stabilityFailure(st)

	var unknown *Result
	for _, q := range peers {
		iso2 := isolationOf(cfg.Isolation, cfg.Dialect, cfg.Dir, prog, q.prog)
		if iso2.Level != iso.Level {
			r.Concurrency.Isolation = iso2
		}
		if gap := isolationGaps(iso2.Level, cfg.Dialect, c.Tables(), prog, q.prog); gap != "" {
			r.Verdict = refine.Unknown
			r.Reason = fmt.Sprintf("concurrent requests: the stability check failed (%s), and the 2-request search of %s with %s is not exact: %s", r.Concurrency.StabilityFailed, shortName(entry), shortName(q.entry), gap)
			return r
		}
		prod, err := interleave.Product(prog, q.prog)
		if err != nil {
			r.Verdict, r.Reason = refine.Unknown, "internal: "+err.Error()
			return r
		}
		if len(prod.Unsupported) > 0 {
			u := prod.Unsupported[0]
			r.Verdict, r.Reason, r.Position = refine.Unknown, fmt.Sprintf("unsupported: %s at %s", u.What, u.Position()), u.Position()
			return r
		}
		res, asm, err := checkModel(prod, c, schema, facts, s, cfg, &dbmodel.Concurrency{})
		if err != nil {
			r.Verdict, r.Reason = refine.Unknown, "internal: "+err.Error()
			return r
		}
		r.SMTQueries += res.Stats.SMTQueries
		r.Concurrency.PairsSearched++
		switch res.Verdict {
		case refine.Unsafe:
			r.Verdict, r.Trace, r.Position, r.Refinements = refine.Unsafe, res, res.Position, res.Refinements
			r.Assumptions = asm
			r.Reason = fmt.Sprintf("two concurrent requests (%s ∥ %s) break the constraint; each alone keeps it", shortName(entry), shortName(q.entry))
			fillCounterexample(r.Concurrency, prod, res.Trace, entry, q.entry)
			return r
		case refine.Unknown:
			if unknown == nil {
				unknown = &Result{Reason: fmt.Sprintf("concurrent requests %s ∥ %s: %s", shortName(entry), shortName(q.entry), res.Reason), Position: res.Position}
			}
		}
		r.Assumptions = mergeStrings(r.Assumptions, asm)
	}
	if unknown != nil {
		r.Verdict, r.Reason, r.Position = refine.Unknown, unknown.Reason, unknown.Position
		return r
	}
	r.Verdict = refine.Safe
	r.Concurrency.Bounded = true
	return r
}

// checkModel lowers prog in the row model of c with concurrency conc and
// runs the configured engine on it; it returns the result and every
// assumption made.
func checkModel(prog *ir.Program, c spec.Property, schema *sqlir.Schema, facts []spec.Fact, s *smt.Solver, cfg Config, conc *dbmodel.Concurrency) (*refine.Result, []string, error) {
	all, _ := withCheckFacts(schema, c, prog, facts)
	low, err := dbmodel.Lower(prog, c, dbmodel.Options{Schema: schema, NoInferKey: cfg.NoInferKey, Facts: all, Dialect: cfg.Dialect, Concurrency: conc})
	if err != nil {
		return nil, nil, err
	}
	ir.PropagateCopies(low.Program)
	asm := append(append([]string(nil), prog.Assumptions...), low.Assumptions...)
	max := cfg.MaxRefinements
	if max == 0 {
		max = 20
	}
	opt := refine.Options{MaxRefinements: max, Timeout: cfg.TimeLimit}
	switch cfg.Engine {
	case "paths":
		return refine.CheckPaths(low.Program, s, opt, 100000), asm, nil
	case "fixpoint":
		return refine.Check(low.Program, s, opt), asm, nil
	}
	return refine.CheckLBE(low.Program, s, opt), asm, nil
}

// stabilityFailure says why the stability check failed.
func stabilityFailure(res *refine.Result) string {
	if res.Verdict == refine.Unknown {
		return "undecided: " + res.Reason
	}
	if res.Position != "" {
		return "a value read before another request's commit may be stale at " + res.Position
	}
	return "a value read before another request's commit may be stale"
}

// fillCounterexample reads the requests, the initial rows and the
// schedule off the product's counterexample t.
func fillCounterexample(cc *Concurrency, prod *ir.Program, t *vcgen.Trace, a, b string) {
	cc.ConcurrentWith = b
	cc.ConcurrencyOnly = true
	if t == nil {
		return
	}
	entries := []string{a, b}
	for i, e := range entries {
		name := interleave.RequestName(i)
		run := RequestRun{Request: name, Entry: e, Inputs: []vcgen.Binding{}}
		for _, in := range t.Inputs {
			if rest, ok := strings.CutPrefix(in.Name, name+"."); ok {
				run.Inputs = append(run.Inputs, vcgen.Binding{Name: rest, Value: in.Value})
			}
		}
		cc.Requests = append(cc.Requests, run)
	}
	cc.InitialRows = t.Rows
	cc.Schedule = schedule(prod, t)
}

// dbOp is a database operation of a product, as a trace step names it.
type dbOp struct{ op, sql string }

// schedule lists the database operations among t's steps, in order.
func schedule(prod *ir.Program, t *vcgen.Trace) []ScheduleStep {
	ops := map[[3]string]dbOp{}
	for _, e := range prod.Edges {
		info := e.Stmt.Source()
		k := [3]string{info.Request, info.Position(), info.Text}
		switch s := e.Stmt.(type) {
		case *ir.Exec:
			ops[k] = dbOp{"exec", info.Text}
		case *ir.Select:
			ops[k] = dbOp{"select", info.Text}
		case *ir.TxOp:
			ops[k] = dbOp{s.Op.String(), strings.ToUpper(s.Op.String())}
		}
	}
	out := []ScheduleStep{}
	count := map[string]int{}
	for _, st := range t.Steps {
		op, ok := ops[[3]string{st.Request, st.Position, st.Text}]
		if !ok {
			continue
		}
		count[st.Request]++
		out = append(out, ScheduleStep{Request: st.Request, Step: count[st.Request], Pos: st.Position,
			Op: op.op, SQL: op.sql, Args: stepArgs(st)})
	}
	return out
}

// stepArgs returns the values bound to a step's placeholders, by index.
func stepArgs(st vcgen.TraceStep) []string {
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
