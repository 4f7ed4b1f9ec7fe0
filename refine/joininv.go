package refine

import (
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// minJoinsForInvariants is the number of joins of a loop-free cone from
// which decideDAG first tries joinInvariants. Below it the one formula is
// cheap (gen.Sequential(24): 1 query, 0.23 M Z3 units; the corpus's
// largest cone has 11 joins) and the pass would only add queries; above
// it Z3's work on the one formula grows much faster than the cone
// (Sequential(96): 7.6 M units, the pass 89 k; docs/lbe-limits.md).
const minJoinsForInvariants = 48

// joinResult is what joinInvariants proved about a loop-free cone.
type joinResult struct {
	// safe: every edge into Error is infeasible under the invariants.
	safe bool
	// lemmas are reach(c) => P(c) for the joins c with invariants P(c),
	// over the DAG's versions: facts of every execution, which the one
	// formula may assume.
	lemmas []ir.Expr
}

// joinInvariants is the cheap first pass of decideDAG on a large cone
// (idea 5 of issue 10's scaling work): a Floyd-style annotation of the
// DAG d at its cut points (Entry, every join, Error) with the candidates
// of the constraint's own atoms (the negated conditions of the edges into
// Error and their atoms, both ways). The cone between cut points is a
// forest of segments (a location that is not a cut point has one
// incoming edge), so every path from Entry is a sequence of segments.
// In topological order, P(c) keeps the candidates that every segment σ
// into c preserves: P(c') ∧ C(σ) ⇒ p, c' the segment's start, C(σ) its
// edges' constraints (vcgen's semantics, the DAG's versions). A segment
// that writes none of p's variables preserves p if P(c') has it, with no
// query; the others take one query for all their candidates (and one per
// candidate if that fails). Error is unreachable if every segment into it
// is infeasible under its start's invariants.
//
// On a DAG one forward pass is the fixpoint: P(c') is final before any
// segment out of c' is examined. The queries are at most (segments that
// write a candidate's variable) × (1 + candidates): linear in the cone,
// where the one formula is not.
//
// late reports the wall-clock or the query limit: the pass then stops,
// proving nothing more (the lemmas it has are kept).
func joinInvariants(d *dagFormula, order []ir.Loc, s *smt.Solver, late func() bool) (joinResult, error) {
	p := d.prog
	cands := errorCandidates(d.in[p.Error])
	var res joinResult
	if len(cands) == 0 {
		return res, nil
	}
	cut := func(l ir.Loc) bool { return l == p.Entry || l == p.Error || len(d.in[l]) > 1 }
	inv := map[ir.Loc][]ir.Expr{p.Entry: nil} // over the program's variables
	res.safe = true
	for _, c := range order {
		if c == p.Entry || !cut(c) {
			continue
		}
		if late() {
			res.safe = false
			return res, nil
		}
		var keep []ir.Expr
		for k, e := range d.in[c] {
			start, seg := segmentInto(d, e, cut)
			pre := ir.And(d.rename(ir.And(inv[start]...), d.atVersion(start)), segmentFormula(d, seg))
			if c == p.Error {
				r, err := s.Sat(pre)
				if err != nil {
					return res, err
				}
				if r != smt.Unsat {
					res.safe = false
					break
				}
				continue
			}
			want := cands
			if k > 0 {
				want = keep
			}
			got, err := preserved(d, s, pre, seg, inv[start], want)
			if err != nil {
				return res, err
			}
			keep = got
			if len(keep) == 0 {
				break
			}
		}
		if c == p.Error {
			continue
		}
		inv[c] = keep
		if len(keep) > 0 {
			res.lemmas = append(res.lemmas, ir.Implies(d.reach[c], d.rename(ir.And(keep...), d.atVersion(c))))
		}
	}
	return res, nil
}

// preserved returns the candidates of want (over the program's
// variables) that hold after the segment seg on every execution of it
// that satisfies pre: the invariants have of its start and its edges'
// constraints, over the DAG's versions.
func preserved(d *dagFormula, s *smt.Solver, pre ir.Expr, seg []*ir.Edge, have, want []ir.Expr) ([]ir.Expr, error) {
	written, read := writtenBy(seg), assumedBy(seg)
	last := seg[len(seg)-1]
	post := d.outVersion(last)
	var keep, ask []ir.Expr
	for _, q := range want {
		switch held := containsExpr(have, q); {
		case held && !ir.Mentions(q, written):
			keep = append(keep, q) // unchanged, and it held
		case !held && !ir.Mentions(q, written) && !ir.Mentions(q, read):
			// Unchanged and unconstrained by the segment, and not
			// known at its start: dropped without a query (dropping a
			// candidate is always sound, it only proves less).
		default:
			ask = append(ask, q)
		}
	}
	if len(ask) == 0 {
		return keep, nil
	}
	r, err := s.Sat(ir.And(pre, ir.Not(d.rename(ir.And(ask...), post))))
	if err != nil {
		return nil, err
	}
	if r == smt.Unsat {
		return append(keep, ask...), nil
	}
	if len(ask) == 1 {
		return keep, nil
	}
	for _, q := range ask {
		r, err := s.Sat(ir.And(pre, ir.Not(d.rename(q, post))))
		if err != nil {
			return nil, err
		}
		if r == smt.Unsat {
			keep = append(keep, q)
		}
	}
	return keep, nil
}

// errorCandidates returns the candidate invariants of the edges into
// Error: the negation of each one's assumed condition and the atoms of
// those conditions, each both ways, without duplicates (a fact of Go,
// ir.KindFact, is assumed but never mined, as for predicates).
func errorCandidates(into []*ir.Edge) []ir.Expr {
	var out []ir.Expr
	seen := map[string]bool{}
	add := func(e ir.Expr) {
		if _, ok := e.(ir.BoolConst); ok {
			return
		}
		if k := e.String(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	for _, e := range into {
		a, ok := e.Stmt.(*ir.Assume)
		if !ok || a.Kind == ir.KindFact {
			continue
		}
		add(ir.Not(a.Cond))
		for _, at := range ir.Atoms(a.Cond) {
			add(at)
			add(ir.Not(at))
		}
	}
	return out
}

// segmentInto returns the segment that ends with e: the edges from the
// nearest cut point before e (its start) to e, in order.
func segmentInto(d *dagFormula, e *ir.Edge, cut func(ir.Loc) bool) (ir.Loc, []*ir.Edge) {
	rev := []*ir.Edge{e}
	l := e.From
	for !cut(l) {
		in := d.in[l][0]
		rev = append(rev, in)
		l = in.From
	}
	seg := make([]*ir.Edge, len(rev))
	for i, x := range rev {
		seg[len(rev)-1-i] = x
	}
	return l, seg
}

// segmentFormula is the conjunction of the constraints of seg's edges.
func segmentFormula(d *dagFormula, seg []*ir.Edge) ir.Expr {
	parts := make([]ir.Expr, len(seg))
	for i, e := range seg {
		parts[i] = d.cons[e]
	}
	return ir.And(parts...)
}

// writtenBy returns the variables the edges assign or havoc.
func writtenBy(seg []*ir.Edge) map[*ir.Var]bool {
	w := map[*ir.Var]bool{}
	for _, e := range seg {
		switch s := e.Stmt.(type) {
		case *ir.Assign:
			for _, v := range s.Lhs {
				w[v] = true
			}
		case *ir.Havoc:
			for _, v := range s.Vars {
				w[v] = true
			}
		}
	}
	return w
}

// assumedBy returns the variables the conditions of the edges' Assume
// statements read.
func assumedBy(seg []*ir.Edge) map[*ir.Var]bool {
	r := map[*ir.Var]bool{}
	for _, e := range seg {
		if a, ok := e.Stmt.(*ir.Assume); ok {
			ir.CollectVars(a.Cond, r)
		}
	}
	return r
}

func containsExpr(list []ir.Expr, e ir.Expr) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// atVersion returns the versions in force at l (the version 0 of a
// variable not yet written).
func (d *dagFormula) atVersion(l ir.Loc) func(*ir.Var) *ir.Var {
	at := d.at[l]
	return func(v *ir.Var) *ir.Var {
		if s, ok := at[v]; ok {
			return s
		}
		return d.init(v)
	}
}

// outVersion returns the versions in force after e.
func (d *dagFormula) outVersion(e *ir.Edge) func(*ir.Var) *ir.Var {
	out := d.out[e]
	return func(v *ir.Var) *ir.Var {
		if s, ok := out[v]; ok {
			return s
		}
		return d.init(v)
	}
}

// countJoins returns the number of locations of the cone (order) with
// more than one incoming edge, Error excluded.
func countJoins(d *dagFormula, order []ir.Loc) int {
	n := 0
	for _, l := range order {
		if l != d.prog.Error && len(d.in[l]) > 1 {
			n++
		}
	}
	return n
}
