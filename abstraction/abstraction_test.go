package abstraction

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/boolprog"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

func lit(n int64) ir.Expr { return ir.IntLit(n) }

func newSolver(t *testing.T) *smt.Solver {
	t.Helper()
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestCanonical(t *testing.T) {
	p := ir.NewProgram("vars")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	b := p.NewVar("b", ir.Bool, ir.Local)
	r := p.NewVar("r", ir.Real, ir.Local)
	tests := []struct {
		in   ir.Expr
		want string
		neg  bool
	}{
		{ir.Cmp(ir.OpLt, x, y), "x >= y", true},
		{ir.Cmp(ir.OpGt, x, lit(5)), "x <= 5", true},
		{ir.Cmp(ir.OpNe, x, y), "x == y", true},
		{ir.Cmp(ir.OpEq, y, x), "x == y", false},
		{ir.Cmp(ir.OpGe, y, x), "x <= y", false},
		{ir.Cmp(ir.OpLe, x, y), "x <= y", false},
		{ir.Cmp(ir.OpLe, ir.Add(x, lit(1)), lit(10)), "x <= 9", false},
		{ir.Cmp(ir.OpLe, ir.Arith(ir.OpMul, lit(2), x), lit(5)), "x <= 2", false},
		{ir.Cmp(ir.OpGe, ir.Arith(ir.OpMul, lit(2), x), lit(5)), "x >= 3", false},
		{ir.Cmp(ir.OpEq, ir.Arith(ir.OpMul, lit(2), x), lit(5)), "false", false},
		{ir.Cmp(ir.OpLe, ir.Sub(x, y), lit(-1000)), "(y - x) >= 1000", false},
		{ir.Cmp(ir.OpGe, ir.Sub(ir.Add(x, lit(3)), lit(3)), x), "true", false},
		{ir.Not(ir.Cmp(ir.OpGe, x, lit(0))), "x >= 0", true},
		{ir.Not(b), "b", true},
		{ir.Cmp(ir.OpNe, b, ir.Not(b)), "!b == b", true},
		{ir.Cmp(ir.OpGe, r, ir.RealLit(big.NewRat(1, 2))), "r >= 1/2", false},
		{ir.Cmp(ir.OpLe, ir.Add(r, x), lit(1)), "(r + real(x)) <= 1", false},
	}
	for _, tc := range tests {
		got, neg := Canonical(tc.in)
		if got.String() != tc.want || neg != tc.neg {
			t.Errorf("Canonical(%s) = %s, %v; want %s, %v", tc.in, got, neg, tc.want, tc.neg)
		}
		again, neg2 := Canonical(got)
		if again.String() != got.String() || neg2 {
			t.Errorf("Canonical is not idempotent on %s: %s, %v", got, again, neg2)
		}
	}
}

// TestCanonicalEquivalent checks with Z3 that the canonical form is
// equivalent to the atom (or to its negation).
func TestCanonicalEquivalent(t *testing.T) {
	s := newSolver(t)
	p := ir.NewProgram("vars")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	atoms := []ir.Expr{
		ir.Cmp(ir.OpLt, ir.Sub(x, ir.Arith(ir.OpMul, lit(3), y)), lit(7)),
		ir.Cmp(ir.OpGe, ir.Arith(ir.OpMul, lit(-4), x), ir.Arith(ir.OpMul, lit(6), y)),
		ir.Cmp(ir.OpGt, ir.Neg(x), ir.Add(y, lit(-5))),
		ir.Cmp(ir.OpNe, ir.Arith(ir.OpMul, lit(4), x), ir.Arith(ir.OpMul, lit(6), y)),
		ir.Cmp(ir.OpLe, ir.Arith(ir.OpMul, lit(4), x), lit(-7)),
	}
	for _, a := range atoms {
		c, neg := Canonical(a)
		if neg {
			c = ir.Not(c)
		}
		ok, err := s.Valid(ir.And(ir.Implies(a, c), ir.Implies(c, a)))
		if err != nil || !ok {
			t.Errorf("%s is not equivalent to its canonical form %s (%v)", a, c, err)
		}
	}
}

// build returns an abstractor with options opt and the abstraction of p
// over preds.
func buildOpt(t *testing.T, opt Options, p *ir.Program, preds ...ir.Expr) (*Abstractor, *Abstraction) {
	t.Helper()
	a := New(newSolver(t), opt)
	x, err := a.Build(p, preds)
	if err != nil {
		t.Fatal(err)
	}
	return a, x
}

func build(t *testing.T, p *ir.Program, preds ...ir.Expr) (*Abstractor, *Abstraction) {
	t.Helper()
	return buildOpt(t, Options{}, p, preds...)
}

func TestF(t *testing.T) {
	p := ir.NewProgram("f")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	z := p.NewVar("z", ir.Int, ir.Local)
	ge := func(v ir.Expr, n int64) ir.Expr { return ir.Cmp(ir.OpGe, v, lit(n)) }
	a, abs := build(t, p, ge(x, 0), ge(x, 5), ge(y, 0))
	// want gives F on the consistent valuations of (x >= 0, x >= 5, y >= 0);
	// on the inconsistent ones (x < 0 but x >= 5) F may be anything.
	tests := []struct {
		phi  ir.Expr
		text string // the printed F, when it is short
		want func(b0, b1, b2 bool) bool
	}{
		{ge(x, 0), "b0", func(b0, b1, b2 bool) bool { return b0 }},
		{ir.Cmp(ir.OpLt, x, lit(5)), "!b1", func(b0, b1, b2 bool) bool { return !b1 }},
		{ge(x, 1), "b1", func(b0, b1, b2 bool) bool { return b1 }}, // only x >= 5 implies it
		{ge(x, 7), "b1 & !b0", func(b0, b1, b2 bool) bool { return false }},
		{ge(ir.Add(x, y), 0), "", func(b0, b1, b2 bool) bool { return b0 && b2 }},
		{ir.Cmp(ir.OpLt, x, lit(-3)), "", func(b0, b1, b2 bool) bool { return false }},
		{ge(z, 0), "0", func(b0, b1, b2 bool) bool { return false }}, // no relevant predicate
		{ir.Or(ge(z, 0), ir.Cmp(ir.OpLt, z, lit(0))), "1", func(b0, b1, b2 bool) bool { return true }},
		{ir.True, "1", func(b0, b1, b2 bool) bool { return true }},
	}
	val := func(b bool) boolprog.Value {
		if b {
			return boolprog.True
		}
		return boolprog.False
	}
	for _, tc := range tests {
		f, err := a.F(abs, tc.phi)
		if err != nil {
			t.Fatal(err)
		}
		got := boolprog.ExprString(f)
		if tc.text != "" && got != tc.text {
			t.Errorf("F(%s) = %s, want %s", tc.phi, got, tc.text)
		}
		for m := 0; m < 8; m++ {
			b0, b1, b2 := m&1 != 0, m&2 != 0, m&4 != 0
			if !b0 && b1 {
				continue // inconsistent
			}
			state := []boolprog.Value{val(b0), val(b1), val(b2)}
			if (boolprog.Eval(f, state) == boolprog.True) != tc.want(b0, b1, b2) {
				t.Errorf("F(%s) = %s is wrong at b0=%v b1=%v b2=%v", tc.phi, got, b0, b1, b2)
			}
		}
	}
}

// TestFShannon checks F over more predicates than AllSAT takes, by
// evaluating it on concrete states: it must imply φ (soundness) and hold
// where the predicates' values force φ.
func TestFShannon(t *testing.T) {
	p := ir.NewProgram("f")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	var preds []ir.Expr
	for n := int64(0); n <= 6; n++ {
		preds = append(preds, ir.Cmp(ir.OpGe, x, lit(n)))
	}
	preds = append(preds, ir.Cmp(ir.OpGe, y, lit(0)))
	a, abs := buildOpt(t, Options{MaxQueries: 512}, p, preds...)
	phi := ir.Cmp(ir.OpGe, ir.Add(x, y), lit(3))
	f, err := a.F(abs, phi)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("F(%s) = %s", phi, boolprog.ExprString(f))
	state := func(xv, yv int64) []boolprog.Value {
		env := func(v *ir.Var) (ir.Value, bool) {
			n := map[*ir.Var]int64{x: xv, y: yv}[v]
			return ir.NumValue(ir.Int, big.NewRat(n, 1)), true
		}
		s := make([]boolprog.Value, len(abs.Preds))
		for i, q := range abs.Preds {
			v, err := ir.Eval(q.Expr, env)
			if err != nil {
				t.Fatal(err)
			}
			s[i] = boolprog.False
			if v.B {
				s[i] = boolprog.True
			}
		}
		return s
	}
	for xv := int64(-2); xv <= 9; xv++ {
		for yv := int64(-2); yv <= 2; yv++ {
			got := boolprog.Eval(f, state(xv, yv)) == boolprog.True
			if got && xv+yv < 3 {
				t.Errorf("F holds at x=%d, y=%d where φ is false", xv, yv)
			}
			// φ is forced when x >= 3 and y >= 0 are known.
			if want := xv >= 3 && yv >= 0; want && !got {
				t.Errorf("F fails at x=%d, y=%d where the predicates imply φ", xv, yv)
			}
		}
	}
}

func TestBuildPrints(t *testing.T) {
	p := ir.NewProgram("inc")
	x := p.NewVar("x", ir.Int, ir.Local)
	l1, l2, l3 := p.NewLoc(), p.NewLoc(), p.NewLoc()
	at := func(line int) ir.Info { return ir.Info{File: "inc.go", Line: line, Kind: ir.KindAssign} }
	p.AddEdge(p.Entry, l1, &ir.Havoc{Vars: []*ir.Var{x}, Info: at(1)})
	p.AddEdge(l1, l2, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(0)), Info: at(2)})
	p.AddEdge(l2, l3, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(1))}, Info: at(3)})
	p.AddEdge(l3, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(0)), Info: at(4)})
	p.AddEdge(l3, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(0)), Info: at(4)})
	_, abs := build(t, p, ir.Cmp(ir.OpLt, x, lit(0)), ir.Cmp(ir.OpGe, x, lit(5)))
	out := abs.Prog.String()
	t.Logf("\n%s", out)
	for _, want := range []string{
		"b0 := {x >= 0}, b1 := {x >= 5}",
		"b0, b1 := *, *;",   // the havoc
		"assume(b0 | !b1);", // x >= 5 implies x >= 0
		"assume(b0);",       // assume x >= 0
		"b0, b1 := choose(b0 | b1, b1 & !b0), choose(b1, !b0);", // x := x + 1
		"assume(!b0); goto L",                   // x < 0 ...
		"b1 := choose(b1 | b0, 1); goto ERROR;", // ... implies x < 5
		"// x := x + 1 (inc.go:3)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("boolean program lacks %q", want)
		}
	}
	tr, _ := boolprog.Reach(abs.Prog)
	if tr != nil {
		t.Errorf("Error reachable in the abstraction")
	}
}

// TestPath maps an abstract trace back to ir edges, dropping the
// consistency edge of a havoc.
func TestPath(t *testing.T) {
	p := ir.NewProgram("path")
	x := p.NewVar("x", ir.Int, ir.Local)
	l1 := p.NewLoc()
	h := p.AddEdge(p.Entry, l1, &ir.Havoc{Vars: []*ir.Var{x}})
	e := p.AddEdge(l1, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(7))})
	_, abs := build(t, p, ir.Cmp(ir.OpGe, x, lit(7)), ir.Cmp(ir.OpGe, x, lit(3)))
	tr, _ := boolprog.Reach(abs.Prog)
	if tr == nil {
		t.Fatal("Error unreachable")
	}
	if len(tr.Edges) != 4 {
		t.Errorf("abstract trace of %d edges, want 4 (havoc, consistency, assume, strengthening)", len(tr.Edges))
	}
	path, err := abs.Path(p, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != 2 || path[0] != h || path[1] != e {
		t.Errorf("path %v, want [%v %v]", path, h, e)
	}
}

func TestNotLowered(t *testing.T) {
	p := ir.NewProgram("raw")
	p.AddEdge(p.Entry, p.Error, &ir.TxOp{Op: ir.Commit, Tx: 1})
	a := New(newSolver(t), Options{})
	if _, err := a.Build(p, nil); err == nil || !strings.Contains(err.Error(), "lowered") {
		t.Errorf("Build of an unlowered program: %v", err)
	}
}

// TestCache: building twice asks the solver nothing new the second time.
func TestCache(t *testing.T) {
	p := ir.NewProgram("inc")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	l1 := p.NewLoc()
	p.AddEdge(p.Entry, l1, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(y, lit(2))}})
	p.AddEdge(l1, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(0))})
	preds := []ir.Expr{ir.Cmp(ir.OpGe, x, lit(0)), ir.Cmp(ir.OpGe, y, lit(0))}
	a := New(newSolver(t), Options{})
	first, err := a.Build(p, preds)
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Build(p, preds)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stats.Queries == 0 || second.Stats.Queries != 0 || second.Stats.CacheHits == 0 {
		t.Errorf("first build %+v, second %+v", first.Stats, second.Stats)
	}
	if first.Prog.String() != second.Prog.String() {
		t.Errorf("builds differ")
	}
}

// TestBuildWithin: a build over its query limit stops at the first edge
// past it, so a caller's budget bounds one refinement, not only the
// rounds between builds.
func TestBuildWithin(t *testing.T) {
	p := ir.NewProgram("chain")
	x := p.NewVar("x", ir.Int, ir.Local)
	from := p.Entry
	for i := range 12 {
		to := p.NewLoc()
		p.AddEdge(from, to, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(int64(i+1)))}})
		from = to
	}
	p.AddEdge(from, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(0))})
	preds := []ir.Expr{ir.Cmp(ir.OpLt, x, lit(0)), ir.Cmp(ir.OpGe, x, lit(3)), ir.Cmp(ir.OpGe, x, lit(10))}
	full, err := New(newSolver(t), Options{}).Build(p, preds)
	if err != nil {
		t.Fatal(err)
	}
	limit := full.Stats.Queries / 3
	if limit < 2 {
		t.Fatalf("the full build asks %d queries: too few for the test", full.Stats.Queries)
	}
	s := newSolver(t)
	_, err = New(s, Options{}).BuildWithin(p, preds, limit)
	var ql *QueryLimitError
	if !errors.As(err, &ql) {
		t.Fatalf("BuildWithin(limit %d of %d) = %v, want a *QueryLimitError", limit, full.Stats.Queries, err)
	}
	if ql.Limit != limit || ql.Queries <= limit || ql.Queries >= full.Stats.Queries || s.Stats().Queries != ql.Queries {
		t.Errorf("stopped at %d queries (solver %d), limit %d, full build %d", ql.Queries, s.Stats().Queries, limit, full.Stats.Queries)
	}
	if _, err := New(newSolver(t), Options{}).BuildWithin(p, preds, full.Stats.Queries); err != nil {
		t.Errorf("BuildWithin(its own cost) = %v", err)
	}
}

func TestSolveCombine(t *testing.T) {
	p := ir.NewProgram("vars")
	x := p.NewVar("x", ir.Int, ir.Local)
	y := p.NewVar("y", ir.Int, ir.Local)
	z := p.NewVar("z", ir.Int, ir.Local)
	solve := []struct {
		eq   ir.Expr
		want string // "" for no solution
	}{
		{ir.Eq(x, y), "y"},
		{ir.Eq(y, x), "y"},
		{ir.Eq(ir.Sub(x, y), lit(3)), "y + 3"},
		{ir.Eq(ir.Add(y, ir.Neg(x)), z), "y - z"},
		{ir.Eq(ir.Arith(ir.OpMul, lit(2), x), y), ""}, // x = y/2 is not an integer term
		{ir.Cmp(ir.OpLe, x, y), ""},
		{ir.Eq(y, z), ""},
	}
	for _, tc := range solve {
		e, ok := Solve(tc.eq, x)
		got := ""
		if ok {
			got = e.String()
		}
		if got != tc.want {
			t.Errorf("Solve(%s, x) = %q, want %q", tc.eq, got, tc.want)
		}
	}
	// y + x <= 10 and x <= z: eliminating x compares the bounds, y + z <= 10.
	le, ge, ok := Combine(ir.Cmp(ir.OpLe, ir.Add(y, x), lit(10)), ir.Cmp(ir.OpLe, x, z), x)
	if !ok || le.String() != "(y + z) <= 10" || ge.String() != "(y + z) >= 10" {
		t.Errorf("Combine = %v, %v, %v; want (y + z) <= 10 and >= 10", le, ge, ok)
	}
	if _, _, ok := Combine(ir.Cmp(ir.OpLe, y, lit(1)), ir.Cmp(ir.OpLe, x, z), x); ok {
		t.Errorf("Combine without x in the first atom succeeded")
	}
}

// TestHavocConsistency: after a row is read, its predicates are tied to
// the watched row's through the key equality (substitution clauses) and
// to the predicates over the same variables (tight group).
func TestHavocConsistency(t *testing.T) {
	p := ir.NewProgram("read")
	v := func(name string) *ir.Var { return p.NewVar(name, ir.Int, ir.Column) }
	rid, rb, sid, sb, q := v("r.id"), v("r.b"), v("s.id"), v("s.b"), v("q")
	l1 := p.NewLoc()
	p.AddEdge(p.Entry, l1, &ir.Havoc{Vars: []*ir.Var{sid, sb}})
	p.AddEdge(l1, p.Error, &ir.Assume{Cond: ir.True})
	_, abs := build(t, p,
		ir.Eq(rid, sid),                        // b0
		ir.Eq(rb, sb),                          // b1
		ir.Cmp(ir.OpGe, sb, q),                 // b2
		ir.Cmp(ir.OpGe, rb, q),                 // b3
		ir.Cmp(ir.OpGe, sb, lit(0)),            // b4
		ir.Cmp(ir.OpGe, ir.Add(sb, q), lit(0)), // b5
		ir.Cmp(ir.OpGe, q, lit(0)),             // b6
	)
	out := abs.Prog.String()
	t.Logf("\n%s", out)
	var enforce string
	for _, e := range abs.Prog.Edges {
		if a, ok := e.Stmt.(*boolprog.Assume); ok && strings.HasPrefix(e.Label, "consistency") {
			enforce = boolprog.ExprString(a.Cond)
		}
	}
	for _, want := range []string{
		"!b1 | !b2 | b3", // r.b == s.b ∧ s.b >= q ⇒ r.b >= q
		"!b4 | b5 | !b6", // s.b >= 0 ∧ q >= 0 ⇒ s.b + q >= 0 (tight group of b5)
	} {
		if !strings.Contains(enforce, want) {
			t.Errorf("consistency %s lacks %s", enforce, want)
		}
	}
}
