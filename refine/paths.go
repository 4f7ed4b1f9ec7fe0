package refine

import (
	"context"
	"fmt"
	"time"

	"github.com/dbverify/dbverify/abstraction"
	"github.com/dbverify/dbverify/boolprog"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// CheckPaths is the seed paper's algorithm, kept as a baseline for the
// scaling study (--engine paths): instead of a fixpoint over abstract
// states, it lists the boolean program's CFG paths from entry to error and
// decides each with one SMT query over the boolean variables; an
// abstractly feasible path is then replayed on the concrete program as in
// Check. The number of paths grows exponentially with sequential branches
// and is infinite with loops: maxPaths bounds the listing (then UNKNOWN).
func CheckPaths(ctx context.Context, p *ir.Program, s *smt.Solver, opt Options, maxPaths int) *Result {
	return withContext(ctx, s, opt, func(opt Options) *Result { return checkPaths(p, s, opt, maxPaths) })
}

// checkPaths is CheckPaths without the context.
func checkPaths(p *ir.Program, s *smt.Solver, opt Options, maxPaths int) (res *Result) {
	opt = opt.withDefaults()
	start := time.Now()
	res = &Result{}
	before := s.Stats()
	defer func() {
		if r := recover(); r != nil {
			res = unknown(fmt.Sprintf("internal: panic: %v", r))
		}
		res.Stats.Seconds = time.Since(start).Seconds()
		after := s.Stats()
		res.Stats.SMTQueries = after.Queries - before.Queries
		res.Stats.SolverSeconds = after.Seconds - before.Seconds
		res.Stats.SolverUnits = after.RLimitUnits - before.RLimitUnits
	}()
	if len(p.Unsupported) > 0 {
		return unknown("unsupported: " + p.Unsupported[0].What)
	}
	preds := newPredSet()
	for _, e := range p.Edges {
		if a, ok := e.Stmt.(*ir.Assume); ok && e.To == p.Error {
			preds.addAtoms(a.Cond)
		}
	}
	abs := abstraction.New(s, opt.Abstraction)
	for {
		if opt.Timeout > 0 && time.Since(start) > opt.Timeout {
			return res.fail(fmt.Sprintf("time limit %s reached", opt.Timeout))
		}
		if q := s.Stats().Queries - before.Queries; q > opt.MaxQueries {
			return res.fail(fmt.Sprintf("SMT query limit %d reached (%d queries)", opt.MaxQueries, q))
		}
		res.Stats.Iterations++
		a, err := abs.BuildWithin(p, preds.list, opt.MaxQueries-(s.Stats().Queries-before.Queries))
		if err != nil {
			return res.fail(buildFailure(err, s, before, opt))
		}
		res.Predicates = res.Predicates[:0]
		for _, q := range a.Preds {
			res.Predicates = append(res.Predicates, q.Text)
		}
		var found []*boolprog.Edge
		var qerr error
		complete := boolprog.Paths(a.Prog, func(edges []*boolprog.Edge) bool {
			if opt.Timeout > 0 && time.Since(start) > opt.Timeout {
				return false
			}
			sat, err := boolPathFeasible(s, a.Prog, edges)
			if err != nil {
				qerr = err
				return false
			}
			if sat {
				found = edges
				return false
			}
			return true
		}, maxPaths)
		if qerr != nil {
			return res.fail("solver: " + qerr.Error())
		}
		if found == nil {
			if !complete {
				return res.fail(fmt.Sprintf("path enumeration stopped after %d paths (loops make them infinite) or the time limit", maxPaths))
			}
			res.Verdict = Safe
			return res
		}
		path, err := a.Path(p, &boolprog.Trace{Edges: found})
		if err != nil {
			return res.fail("internal: " + err.Error())
		}
		if done := res.concretize(p, s, path, preds, opt); done {
			return res
		}
	}
}

// boolPathFeasible decides whether a path of a boolean program can be
// executed: the conjunction of its statements over versioned boolean
// variables (one SMT query, as in the seed paper's VC generation).
func boolPathFeasible(s *smt.Solver, bp *boolprog.Program, edges []*boolprog.Edge) (bool, error) {
	n := len(bp.Preds)
	version := make([]int, n)
	vars := map[[2]int]*ir.Var{}
	cur := func(i int) *ir.Var {
		k := [2]int{i, version[i]}
		v, ok := vars[k]
		if !ok {
			v = &ir.Var{Name: fmt.Sprintf("b%d@%d", i, version[i]), Type: ir.Bool, Kind: ir.Ghost}
			vars[k] = v
		}
		return v
	}
	var conv func(e boolprog.Expr) ir.Expr
	conv = func(e boolprog.Expr) ir.Expr {
		switch e := e.(type) {
		case boolprog.Const:
			return ir.BoolConst(e)
		case boolprog.Var:
			return cur(int(e))
		case *boolprog.Not:
			return ir.Not(conv(e.X))
		case *boolprog.And:
			var xs []ir.Expr
			for _, x := range e.Xs {
				xs = append(xs, conv(x))
			}
			return ir.And(xs...)
		case *boolprog.Or:
			var xs []ir.Expr
			for _, x := range e.Xs {
				xs = append(xs, conv(x))
			}
			return ir.Or(xs...)
		}
		return ir.True
	}
	var parts []ir.Expr
	for _, e := range edges {
		switch st := e.Stmt.(type) {
		case *boolprog.Assume:
			if st.Cond != nil {
				parts = append(parts, conv(st.Cond))
			}
		case *boolprog.Assign:
			var pos, neg []ir.Expr
			for _, c := range st.Values {
				pos = append(pos, conv(orFalse(c.Pos)))
				neg = append(neg, conv(orFalse(c.Neg)))
			}
			for i, v := range st.Vars {
				version[v]++
				nv := cur(v)
				parts = append(parts, ir.Implies(pos[i], nv), ir.Implies(neg[i], ir.Not(nv)), ir.Not(ir.And(pos[i], neg[i])))
			}
		}
	}
	s.Push()
	defer s.Pop()
	if err := s.Assert(ir.And(parts...)); err != nil {
		return false, err
	}
	r, err := s.Check()
	if err != nil {
		return false, err
	}
	return r != smt.Unsat, nil
}

func orFalse(e boolprog.Expr) boolprog.Expr {
	if e == nil {
		return boolprog.Const(false)
	}
	return e
}
