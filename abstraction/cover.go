package abstraction

import (
	"errors"
	"strings"

	"github.com/dbverify/dbverify/boolprog"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// This file computes F(φ), the weakest boolean formula over a list R of
// predicates that implies φ, and the consistency constraint of a group of
// predicates. Formulas are built over local variables: boolprog.Var(j)
// stands for R[j]; the caller renames them (remap).

// allSATLimit is the size of R up to which cover starts with AllSAT:
// 2^6 valuations never exceed the default cube cap.
const allSATLimit = 6

// cover computes F(φ) over R.
//
// AllSAT: the valuations of R in the models of ¬φ are enumerated (each
// found cube is blocked) and F is the complement of their union. That is
// exact: a valuation v is in F iff γ(v) ∧ ¬φ is unsatisfiable,
// inconsistent valuations included. Its cost is the number of those
// valuations, which can double with every predicate independent of φ.
//
// So beyond allSATLimit predicates cover first expands F as a decision
// tree over R (Shannon expansion, the recursion A(ℜ, Π) of the seed
// paper): at a partial valuation c it returns 1 if c ∧ ¬φ is
// unsatisfiable, 0 if c ∧ φ is, and otherwise splits on the next
// predicate. This is exact on the consistent valuations (the only ones a
// concrete state can have) and stops as soon as φ is decided. If that
// needs more than MaxQueries queries, cover runs AllSAT over R (capped at
// MaxCubes valuations), then over its first allSATLimit predicates. When
// all fail (or the solver answers Unknown) F is the sound 0.
func (a *Abstractor) cover(phi ir.Expr, R []*Predicate, st *Stats) (boolprog.Expr, error) {
	if len(R) > allSATLimit {
		e, ok, err := a.shannon(phi, R)
		if err != nil || ok {
			return e, err
		}
		if e, ok, err = a.allSAT(phi, R); err != nil || ok {
			return e, err
		}
		R = R[:allSATLimit]
	}
	e, ok, err := a.allSAT(phi, R)
	if err != nil {
		return nil, err
	}
	if !ok {
		st.Fallbacks++
		return boolprog.Const(false), nil
	}
	return e, nil
}

// allSAT is the AllSAT computation of F(φ) over R. ok is false if the
// cube cap was exceeded or the solver answered Unknown.
func (a *Abstractor) allSAT(phi ir.Expr, R []*Predicate) (boolprog.Expr, bool, error) {
	bad, ok, err := a.enumerate(ir.Not(phi), R)
	if err != nil || !ok {
		return nil, false, err
	}
	return cnfExcluding(len(R), bad), true, nil
}

// enumerate returns the valuations of R (bit j: R[j] holds) in the models
// of f: push; assert f; repeat {check; read the model's cube; block it};
// pop. ok is false if more than MaxCubes exist or an answer was Unknown.
func (a *Abstractor) enumerate(f ir.Expr, R []*Predicate) (vals []uint64, ok bool, err error) {
	s := a.s
	s.Push()
	defer s.Pop()
	if err := s.Assert(f); err != nil {
		return nil, false, err
	}
	seen := map[uint64]bool{}
	for {
		res, err := s.Check()
		if err != nil {
			return nil, false, err
		}
		switch res {
		case smt.Unsat:
			return vals, true, nil
		case smt.Unknown:
			return nil, false, nil
		}
		if len(vals) >= a.opt.MaxCubes {
			return nil, false, nil
		}
		m, err := s.Model()
		if err != nil {
			return nil, false, err
		}
		var mask uint64
		lits := make([]ir.Expr, len(R))
		for j, p := range R {
			v, err := ir.Eval(p.Expr, m.Value)
			if err != nil {
				return nil, false, nil // e.g. division by zero: give up soundly
			}
			if v.B {
				mask |= 1 << j
				lits[j] = p.Expr
			} else {
				lits[j] = ir.Not(p.Expr)
			}
		}
		if seen[mask] {
			// The model contradicts its own blocking clause: ir.Eval and
			// Z3 disagree (e.g. on division by zero). Give up soundly.
			return nil, false, nil
		}
		seen[mask] = true
		vals = append(vals, mask)
		if err := s.Assert(ir.Not(ir.And(lits...))); err != nil {
			return nil, false, err
		}
	}
}

// shannon expands F(φ) over R as a decision tree; ok is false if the query
// budget ran out.
func (a *Abstractor) shannon(phi ir.Expr, R []*Predicate) (boolprog.Expr, bool, error) {
	budget := a.opt.MaxQueries
	notPhi := ir.Not(phi)
	var ctx []ir.Expr
	query := func(f ir.Expr) (smt.Result, error) {
		q := make([]ir.Expr, 0, len(ctx)+1)
		q = append(q, ctx...)
		budget--
		return a.s.Sat(ir.And(append(q, f)...))
	}
	errBudget := errors.New("query budget exhausted")
	var rec func(i int) (boolprog.Expr, error)
	rec = func(i int) (boolprog.Expr, error) {
		if budget < 2 {
			return nil, errBudget
		}
		r, err := query(notPhi)
		if err != nil {
			return nil, err
		}
		if r == smt.Unsat {
			return boolprog.Const(true), nil
		}
		if r, err = query(phi); err != nil {
			return nil, err
		}
		if r == smt.Unsat || i == len(R) {
			return boolprog.Const(false), nil
		}
		ctx = append(ctx, R[i].Expr)
		hi, err := rec(i + 1)
		ctx = ctx[:len(ctx)-1]
		if err != nil {
			return nil, err
		}
		ctx = append(ctx, ir.Not(R[i].Expr))
		lo, err := rec(i + 1)
		ctx = ctx[:len(ctx)-1]
		if err != nil {
			return nil, err
		}
		return ite(boolprog.Var(i), hi, lo), nil
	}
	e, err := rec(0)
	if err == errBudget {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return e, true, nil
}

// consistent returns the constraint satisfied by exactly the consistent
// valuations of R: the AllSAT of true projected on R, written as the
// clauses that exclude the inconsistent valuations. It is nil when the
// enumeration gives up (too many valuations, or Unknown).
func (a *Abstractor) consistent(R []*Predicate) (boolprog.Expr, error) {
	good, ok, err := a.enumerate(ir.True, R)
	if err != nil || !ok {
		return nil, err
	}
	return cnfKeeping(len(R), good), nil
}

// ite returns (b ∧ hi) ∨ (¬b ∧ lo), simplified.
func ite(b boolprog.Expr, hi, lo boolprog.Expr) boolprog.Expr {
	switch {
	case boolprog.ExprEqual(hi, lo):
		return hi
	case hi == boolprog.Const(true) && lo == boolprog.Const(false):
		return b
	case hi == boolprog.Const(false) && lo == boolprog.Const(true):
		return boolprog.MkNot(b)
	case hi == boolprog.Const(true):
		return boolprog.MkOr(b, lo)
	case lo == boolprog.Const(true):
		return boolprog.MkOr(boolprog.MkNot(b), hi)
	case hi == boolprog.Const(false):
		return boolprog.MkAnd(boolprog.MkNot(b), lo)
	case lo == boolprog.Const(false):
		return boolprog.MkAnd(b, hi)
	}
	return boolprog.MkOr(boolprog.MkAnd(b, hi), boolprog.MkAnd(boolprog.MkNot(b), lo))
}

// A cube is a partial valuation: the variables in fixed have the values
// of val (bit j: variable j).
type cube struct{ fixed, val uint64 }

func (c cube) matches(v uint64) bool { return v&c.fixed == c.val&c.fixed }

// cnfExcluding returns a formula over n variables that is false exactly
// on the valuations in bad: one clause per bad valuation, widened greedily
// (a variable is dropped while every completion is still bad), subsumed
// clauses dropped.
func cnfExcluding(n int, bad []uint64) boolprog.Expr {
	set := make(map[uint64]bool, len(bad))
	for _, v := range bad {
		set[v] = true
	}
	allBad := func(c cube) bool {
		free := n - popcount(c.fixed)
		if free > 20 {
			return false
		}
		cnt := 0
		for v := range set {
			if c.matches(v) {
				cnt++
			}
		}
		return cnt == 1<<free
	}
	var cubes []cube
	for _, v := range bad {
		cubes = append(cubes, widen(n, cube{1<<n - 1, v}, allBad))
	}
	return clauses(n, cubes)
}

// cnfKeeping returns a formula over n variables that is true exactly on
// the valuations in good: the cubes with no good valuation, found by
// splitting the variables in order, each widened greedily.
func cnfKeeping(n int, good []uint64) boolprog.Expr {
	noGood := func(c cube) bool {
		for _, v := range good {
			if c.matches(v) {
				return false
			}
		}
		return true
	}
	var cubes []cube
	var split func(c cube, j int, in []uint64)
	split = func(c cube, j int, in []uint64) {
		if len(in) == 0 {
			cubes = append(cubes, widen(n, c, noGood))
			return
		}
		if j == n || len(in) == 1<<(n-j) {
			return // every completion is good
		}
		var t, f []uint64
		for _, v := range in {
			if v&(1<<j) != 0 {
				t = append(t, v)
			} else {
				f = append(f, v)
			}
		}
		split(cube{c.fixed | 1<<j, c.val | 1<<j}, j+1, t)
		split(cube{c.fixed | 1<<j, c.val}, j+1, f)
	}
	split(cube{}, 0, good)
	return clauses(n, cubes)
}

// widen drops the variables of c one by one while ok still holds.
func widen(n int, c cube, ok func(cube) bool) cube {
	for j := 0; j < n; j++ {
		if c.fixed&(1<<j) == 0 {
			continue
		}
		if d := (cube{c.fixed &^ (1 << j), c.val &^ (1 << j)}); ok(d) {
			c = d
		}
	}
	c.val &= c.fixed
	return c
}

// clauses returns the conjunction of the negations of the cubes, those
// contained in a wider one dropped.
func clauses(n int, cubes []cube) boolprog.Expr {
	covers := func(d, c cube) bool { // d is at least as wide as c
		return d.fixed&c.fixed == d.fixed && c.val&d.fixed == d.val
	}
	var kept []cube
	for i, c := range cubes {
		drop := false
		for k, d := range cubes {
			if k != i && covers(d, c) && (d != c || k < i) {
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, c)
		}
	}
	var out []boolprog.Expr
	for _, c := range kept {
		var lits []boolprog.Expr
		for j := 0; j < n; j++ {
			if c.fixed&(1<<j) == 0 {
				continue
			}
			if c.val&(1<<j) != 0 {
				lits = append(lits, boolprog.MkNot(boolprog.Var(j)))
			} else {
				lits = append(lits, boolprog.Var(j))
			}
		}
		out = append(out, boolprog.MkOr(lits...))
	}
	return boolprog.MkAnd(out...)
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// remap renames local variable j to global variable idx[j].
func remap(e boolprog.Expr, idx []int) boolprog.Expr {
	switch e := e.(type) {
	case boolprog.Var:
		return boolprog.Var(idx[e])
	case *boolprog.Not:
		return boolprog.MkNot(remap(e.X, idx))
	case *boolprog.And:
		xs := make([]boolprog.Expr, len(e.Xs))
		for i, x := range e.Xs {
			xs[i] = remap(x, idx)
		}
		return boolprog.MkAnd(xs...)
	case *boolprog.Or:
		xs := make([]boolprog.Expr, len(e.Xs))
		for i, x := range e.Xs {
			xs[i] = remap(x, idx)
		}
		return boolprog.MkOr(xs...)
	}
	return e
}

// negate returns ¬e with the negation pushed to the variables.
func negate(e boolprog.Expr) boolprog.Expr {
	switch e := e.(type) {
	case boolprog.Const:
		return !e
	case *boolprog.Not:
		return e.X
	case *boolprog.And:
		xs := make([]boolprog.Expr, len(e.Xs))
		for i, x := range e.Xs {
			xs[i] = negate(x)
		}
		return boolprog.MkOr(xs...)
	case *boolprog.Or:
		xs := make([]boolprog.Expr, len(e.Xs))
		for i, x := range e.Xs {
			xs[i] = negate(x)
		}
		return boolprog.MkAnd(xs...)
	}
	return boolprog.MkNot(e)
}

// cacheKey identifies a query over a list of predicates.
func cacheKey(head string, R []*Predicate) string {
	var b strings.Builder
	b.WriteString(head)
	for _, p := range R {
		b.WriteByte(0)
		b.WriteString(p.Text)
	}
	return b.String()
}
