package refine

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// randomChecks builds a random loop-free program: a chain of diamonds
// over two inputs, two locals and the column r.v, each branch a few random
// statements, and after some diamonds a check of r.v >= 0 (an edge into
// Error and one past it), so that Error has several incoming edges and
// the cone many joins.
func randomChecks(rng *rand.Rand) *ir.Program {
	p := ir.NewProgram(fmt.Sprintf("checks%d", rng.Int()))
	a := p.NewVar("a", ir.Int, ir.Input)
	b := p.NewVar("b", ir.Int, ir.Input)
	p.Inputs = []*ir.Var{a, b}
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	rv := p.NewVar("r.v", ir.Int, ir.Column)
	rv.Row, rv.Table, rv.Col = "r", "t", "v"
	vars := []*ir.Var{a, b, x, y, rv}
	term := func() ir.Expr {
		v := vars[rng.Intn(len(vars))]
		switch rng.Intn(3) {
		case 0:
			return v
		case 1:
			return ir.Add(v, lit(int64(rng.Intn(7)-2)))
		}
		return ir.Add(v, vars[rng.Intn(len(vars))])
	}
	cmp := func() ir.Expr {
		ops := []ir.Op{ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe}
		return ir.Cmp(ops[rng.Intn(len(ops))], term(), term())
	}
	info := ir.Info{File: "checks.go", Line: 1, Kind: ir.KindAssign, Text: "s"}
	stmt := func() ir.Stmt {
		locals := []*ir.Var{x, y, rv}
		switch rng.Intn(5) {
		case 0, 1:
			return &ir.Assume{Cond: cmp(), Info: info}
		case 2:
			return &ir.Havoc{Vars: []*ir.Var{locals[rng.Intn(2)]}, Info: info}
		}
		return &ir.Assign{Lhs: []*ir.Var{locals[rng.Intn(len(locals))]}, Rhs: []ir.Expr{term()}, Info: info}
	}
	psi := ir.Cmp(ir.OpGe, rv, lit(0))
	chk := ir.Info{File: "checks.go", Line: 9, Kind: ir.KindSQL, Text: "UPDATE t SET v = ?"}
	cur := p.NewLoc()
	p.AddEdge(p.Entry, cur, &ir.Assume{Cond: psi, Info: model("assume psi(r)")})
	n := 2 + rng.Intn(10)
	for k := 0; k < n; k++ {
		join := p.NewLoc()
		c := cmp()
		for _, cond := range []ir.Expr{c, ir.Not(c)} {
			l := p.NewLoc()
			p.AddEdge(cur, l, &ir.Assume{Cond: cond, Info: info})
			for j := rng.Intn(3); j > 0; j-- {
				next := p.NewLoc()
				p.AddEdge(l, next, stmt())
				l = next
			}
			p.AddEdge(l, join, stmt())
		}
		cur = join
		if k == n-1 || rng.Intn(2) == 0 {
			next := p.NewLoc()
			p.AddEdge(cur, p.Error, &ir.Assume{Cond: ir.Not(psi), Info: chk})
			p.AddEdge(cur, next, &ir.Assume{Cond: psi, Info: chk})
			cur = next
		}
	}
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.True, Info: info})
	return p
}

// TestJoinInvariantsAgreeWithOneFormula: on random loop-free programs, the
// first pass (joinInvariants, forced on by minJoins 0) changes no verdict
// of the one formula: what it proves SAFE is SAFE, and its lemmas neither
// hide a counterexample nor make the formula undecided.
func TestJoinInvariantsAgreeWithOneFormula(t *testing.T) {
	s := newSolver(t)
	rng := rand.New(rand.NewSource(12))
	n := 300
	if testing.Short() {
		n = 60
	}
	never := func() bool { return false }
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		p := randomChecks(rng)
		with := decideDAG(p, s, never, never, 0, false)
		without := decideDAG(p, s, never, never, 1<<30, false)
		if with.verdict == Unknown || without.verdict == Unknown {
			t.Errorf("program %d: with the pass %s (%s), without %s (%s)\n%s", i, with.verdict, with.reason, without.verdict, without.reason, p)
			continue
		}
		if with.verdict != without.verdict {
			t.Errorf("program %d: with the pass %s, without %s\n%s", i, with.verdict, without.verdict, p)
			continue
		}
		if with.verdict == Unsafe && with.trace == nil {
			t.Errorf("program %d: UNSAFE without a trace", i)
		}
		switch {
		case with.byInvariants:
			counts["safe by the pass"]++
		case with.verdict == Safe:
			counts["safe by the formula with lemmas"]++
		default:
			counts["unsafe"]++
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"safe by the pass", "safe by the formula with lemmas", "unsafe"} {
		if counts[k] == 0 {
			t.Errorf("no program was %s: the test does not exercise every outcome (%v)", k, counts)
		}
	}
}
