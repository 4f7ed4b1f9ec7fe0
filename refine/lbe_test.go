package refine

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// absDiamond builds
//
//	if x > 0 { y := x } else { y := -x }; if flag { z := y }; check z >= bound
//
// z is assigned on one branch only, so the join after it merges z's
// assigned version with its value at entry (checked against psi on entry).
func absDiamond(bound int64) *ir.Program {
	p := ir.NewProgram("abs")
	x := p.NewVar("x", ir.Int, ir.Input)
	flag := p.NewVar("flag", ir.Bool, ir.Input)
	p.Inputs = []*ir.Var{x, flag}
	y := p.NewVar("y", ir.Int, ir.Local)
	z := p.NewVar("r.z", ir.Int, ir.Column)
	z.Row, z.Table, z.Col = "r", "t", "z"
	psi := ir.Cmp(ir.OpGe, z, lit(bound))
	at := func(line int, kind ir.StepKind, text string) ir.Info {
		return ir.Info{File: "abs.go", Line: line, Kind: kind, Text: text}
	}
	start, thn, els, join, set, join2 := p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, start, &ir.Assume{Cond: psi, Info: model("assume psi(r)")})
	c := at(2, ir.KindBranch, "if x > 0")
	p.AddEdge(start, thn, &ir.Assume{Cond: ir.Cmp(ir.OpGt, x, lit(0)), Info: c})
	p.AddEdge(start, els, &ir.Assume{Cond: ir.Cmp(ir.OpLe, x, lit(0)), Info: c})
	p.AddEdge(thn, join, &ir.Assign{Lhs: []*ir.Var{y}, Rhs: []ir.Expr{x}, Info: at(2, ir.KindAssign, "y := x")})
	p.AddEdge(els, join, &ir.Assign{Lhs: []*ir.Var{y}, Rhs: []ir.Expr{ir.Sub(lit(0), x)}, Info: at(3, ir.KindAssign, "y := -x")})
	f := at(4, ir.KindBranch, "if flag")
	p.AddEdge(join, set, &ir.Assume{Cond: flag, Info: f})
	p.AddEdge(join, join2, &ir.Assume{Cond: ir.Not(flag), Info: f})
	p.AddEdge(set, join2, &ir.Assign{Lhs: []*ir.Var{z}, Rhs: []ir.Expr{y}, Info: at(5, ir.KindSQL, "UPDATE t SET z = ?")})
	chk := at(5, ir.KindSQL, "UPDATE t SET z = ?")
	p.AddEdge(join2, p.Error, &ir.Assume{Cond: ir.Not(psi), Info: chk})
	p.AddEdge(join2, p.Exit, &ir.Assume{Cond: psi, Info: chk})
	return p
}

// approxChoice builds a program with two ways to break r.v >= 0: through
// an over-approximated element e (of a slice the model does not track)
// and, when direct is set, through the input d.
func approxChoice(direct bool) *ir.Program {
	p := ir.NewProgram("approx")
	d := p.NewVar("d", ir.Int, ir.Input)
	which := p.NewVar("which", ir.Bool, ir.Input)
	p.Inputs = []*ir.Var{d, which}
	e := p.NewVar("e", ir.Int, ir.Local)
	e.Approx = "an element of items (approx.go:3)"
	rv := p.NewVar("r.v", ir.Int, ir.Column)
	rv.Row, rv.Table, rv.Col = "r", "t", "v"
	psi := ir.Cmp(ir.OpGe, rv, lit(0))
	at := func(line int, kind ir.StepKind, text string) ir.Info {
		return ir.Info{File: "approx.go", Line: line, Kind: kind, Text: text}
	}
	start, viaE, viaD, upd := p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, start, &ir.Assume{Cond: psi, Info: model("assume psi(r)")})
	p.AddEdge(start, viaE, &ir.Assume{Cond: which, Info: at(2, ir.KindBranch, "if which")})
	p.AddEdge(viaE, upd, &ir.Assign{Lhs: []*ir.Var{rv}, Rhs: []ir.Expr{ir.Sub(rv, e)}, Info: at(3, ir.KindSQL, "UPDATE t SET v = v - ?")})
	if direct {
		p.AddEdge(start, viaD, &ir.Assume{Cond: ir.Not(which), Info: at(2, ir.KindBranch, "if which")})
		p.AddEdge(viaD, upd, &ir.Assign{Lhs: []*ir.Var{rv}, Rhs: []ir.Expr{ir.Sub(rv, d)}, Info: at(5, ir.KindSQL, "UPDATE t SET v = v - ?")})
	}
	chk := at(6, ir.KindSQL, "check")
	p.AddEdge(upd, p.Error, &ir.Assume{Cond: ir.Not(psi), Info: chk})
	p.AddEdge(upd, p.Exit, &ir.Assume{Cond: psi, Info: chk})
	return p
}

func TestCheckLBE(t *testing.T) {
	tests := []struct {
		name    string
		prog    func() *ir.Program
		verdict Verdict
		engine  string // prefix of Result.Engine
		maxQ    int    // most SMT queries allowed (0: no bound)
		reason  string // substring of Reason
		step    string // prefix of "position kind" of a step of the trace
	}{
		{"atm safe", func() *ir.Program { return atm(true) }, Safe, "lbe", 1, "", ""},
		{"atm unsafe", func() *ir.Program { return atm(false) }, Unsafe, "lbe", 1, "", "atm.go:8 sql"},
		{"joins safe", func() *ir.Program { return absDiamond(0) }, Safe, "lbe", 1, "", ""},
		{"joins unsafe", func() *ir.Program { return absDiamond(1) }, Unsafe, "lbe", 1, "", "abs.go:5 sql"},
		{"approximated path excluded", func() *ir.Program { return approxChoice(true) }, Unsafe, "lbe", 2, "", "approx.go:5"},
		{"only an approximated path", func() *ir.Program { return approxChoice(false) }, Unknown, "lbe", 2, "may be spurious", ""},
		{"counter loop", counterLoop, Safe, EngineLoops, 20, "", ""},
		{"count loop", exactCount, Safe, EngineLoops, 30, "", ""},
		// Both engines diverge (see evenStep): lbe gives up, then fixpoint.
		{"even step loop", evenStep, Unknown, "fixpoint (lbe gave up: refinement limit", 0, "refinement limit", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(t)
			res := CheckLBE(context.Background(), tc.prog(), s, Options{KeepBoolProg: true})
			t.Logf("%s %s; engine %s, proof %q, stats %+v", res.Verdict, res.Reason, res.Engine, res.Proof, res.Stats)
			if strings.HasPrefix(tc.engine, "lbe") && !strings.Contains(res.BoolProg, "large-block program") {
				t.Errorf("--dump-boolprog text lacks the block-level program:\n%s", res.BoolProg)
			}
			if tc.engine == EngineLoops && !strings.Contains(res.BoolProg, "block L") {
				t.Errorf("block-level program lists no block:\n%s", res.BoolProg)
			}
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s (%s), want %s", res.Verdict, res.Reason, tc.verdict)
			}
			if !strings.HasPrefix(res.Engine, tc.engine) {
				t.Errorf("engine %q, want %s", res.Engine, tc.engine)
			}
			if tc.maxQ > 0 && res.Stats.SMTQueries > tc.maxQ {
				t.Errorf("%d SMT queries, want at most %d", res.Stats.SMTQueries, tc.maxQ)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", res.Reason, tc.reason)
			}
			switch res.Verdict {
			case Safe:
				loopFree := !strings.Contains(tc.name, "loop")
				if loopFree && (res.Proof != ProofLoopFree || len(res.Predicates) != 0) {
					t.Errorf("loop-free SAFE: proof %q, predicates %q; want %q and none", res.Proof, res.Predicates, ProofLoopFree)
				}
				if !loopFree && (res.Proof != "" || len(res.Predicates) == 0) {
					t.Errorf("SAFE with a loop: proof %q, predicates %q; want the predicates of the loop invariant", res.Proof, res.Predicates)
				}
			case Unsafe:
				if res.Trace == nil {
					t.Fatal("UNSAFE without a trace")
				}
				found := false
				for _, st := range res.Trace.Steps {
					found = found || strings.HasPrefix(st.Position+" "+st.Kind, tc.step)
				}
				if !found {
					t.Errorf("trace has no step %q:\n%s", tc.step, res.Trace)
				}
			}
		})
	}
}

// TestCheckLBETraceMatchesFixpoint checks that the counterexample read off
// the one-formula model has the shape of the fixpoint engine's: the same
// steps and a violating row.
func TestCheckLBETraceMatchesFixpoint(t *testing.T) {
	s := newSolver(t)
	a := CheckLBE(context.Background(), atm(false), s, Options{})
	b := Check(context.Background(), atm(false), s, Options{})
	if a.Verdict != Unsafe || b.Verdict != Unsafe {
		t.Fatalf("verdicts lbe %s (%s), fixpoint %s (%s), want UNSAFE", a.Verdict, a.Reason, b.Verdict, b.Reason)
	}
	steps := func(r *Result) string {
		var out []string
		for _, st := range r.Trace.Steps {
			out = append(out, st.Kind+"@"+st.Position)
		}
		return strings.Join(out, " ")
	}
	if steps(a) != steps(b) {
		t.Errorf("lbe steps %s, fixpoint steps %s", steps(a), steps(b))
	}
	if a.Position != b.Position {
		t.Errorf("lbe position %s, fixpoint %s", a.Position, b.Position)
	}
}

// randomDAG builds a random program over two inputs and two locals: a
// chain of diamonds, each branch assigning or havocking a variable, then
// the check r.v >= 0 after an update of r.v. With loops, some diamonds
// repeat while a random condition holds.
func randomDAG(rng *rand.Rand, loops bool) *ir.Program {
	p := ir.NewProgram(fmt.Sprintf("dag%d", rng.Int()))
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
			return ir.Add(v, lit(int64(rng.Intn(7)-3)))
		}
		return ir.Sub(v, vars[rng.Intn(len(vars))])
	}
	cmp := func() ir.Expr {
		ops := []ir.Op{ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe}
		return ir.Cmp(ops[rng.Intn(len(ops))], term(), term())
	}
	info := ir.Info{File: "dag.go", Line: 1, Kind: ir.KindAssign, Text: "s"}
	stmt := func() ir.Stmt {
		locals := []*ir.Var{x, y, rv}
		switch rng.Intn(4) {
		case 0:
			return &ir.Assume{Cond: cmp(), Info: info}
		case 1:
			return &ir.Havoc{Vars: []*ir.Var{locals[rng.Intn(2)]}, Info: info}
		}
		return &ir.Assign{Lhs: []*ir.Var{locals[rng.Intn(len(locals))]}, Rhs: []ir.Expr{term()}, Info: info}
	}
	psi := ir.Cmp(ir.OpGe, rv, lit(0))
	cur := p.NewLoc()
	p.AddEdge(p.Entry, cur, &ir.Assume{Cond: psi, Info: model("assume psi(r)")})
	for k := 0; k < 1+rng.Intn(4); k++ {
		if loops && rng.Intn(2) == 0 {
			head, join := cur, p.NewLoc()
			c := cmp()
			body := p.NewLoc()
			p.AddEdge(head, body, &ir.Assume{Cond: c, Info: info})
			p.AddEdge(body, head, stmt())
			p.AddEdge(head, join, &ir.Assume{Cond: ir.Not(c), Info: info})
			cur = join
			continue
		}
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
	}
	chk := ir.Info{File: "dag.go", Line: 9, Kind: ir.KindSQL, Text: "UPDATE t SET v = ?"}
	p.AddEdge(cur, p.Error, &ir.Assume{Cond: ir.Not(psi), Info: chk})
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: psi, Info: chk})
	return p
}

// TestCheckLBEAgreesWithFixpoint runs both engines on random programs,
// loop-free and with loops: every verdict both decide must be the same,
// and lbe must decide every loop-free one.
func TestCheckLBEAgreesWithFixpoint(t *testing.T) {
	s := newSolver(t)
	rng := rand.New(rand.NewSource(10))
	n := 80
	if testing.Short() {
		n = 20
	}
	counts := map[Verdict]int{}
	byLBE := 0
	for i := 0; i < n; i++ {
		loops := i%2 == 1
		p := randomDAG(rng, loops)
		a := CheckLBE(context.Background(), p, s, Options{MaxRefinements: 8})
		b := Check(context.Background(), p, s, Options{MaxRefinements: 8})
		counts[a.Verdict]++
		if loops && a.Engine == EngineLoops && a.Verdict != Unknown {
			byLBE++
		}
		if a.Verdict == Unknown && !loops {
			t.Errorf("program %d: lbe UNKNOWN: %s\n%s", i, a.Reason, p)
			continue
		}
		if a.Verdict != b.Verdict {
			t.Logf("program %d (loops %v): lbe %s (%s, %s), fixpoint %s (%s)", i, loops, a.Verdict, a.Reason, a.Engine, b.Verdict, b.Reason)
		}
		if a.Verdict != Unknown && b.Verdict != Unknown && a.Verdict != b.Verdict {
			t.Errorf("program %d: lbe %s, fixpoint %s\n%s", i, a.Verdict, b.Verdict, p)
		}
	}
	t.Logf("lbe verdicts %v; loop programs decided by lbe itself %d", counts, byLBE)
	if counts[Safe] == 0 || counts[Unsafe] == 0 {
		t.Errorf("verdicts %v: the random programs should be both safe and unsafe", counts)
	}
}

// TestPropagateCopiesKeepsVerdicts: copy propagation (ir.PropagateCopies,
// run by the pipeline before every engine) changes no verdict: each
// random program is checked as built and as rewritten, both built from
// the same seed.
func TestPropagateCopiesKeepsVerdicts(t *testing.T) {
	s := newSolver(t)
	orig, dup := rand.New(rand.NewSource(11)), rand.New(rand.NewSource(11))
	n := 400
	if testing.Short() {
		n = 100
	}
	rewritten := 0
	for i := 0; i < n; i++ {
		loops := i%2 == 1
		p, q := randomDAG(orig, loops), randomDAG(dup, loops)
		if ir.PropagateCopies(q) > 0 {
			rewritten++
		}
		a := CheckLBE(context.Background(), p, s, Options{MaxRefinements: 8})
		b := CheckLBE(context.Background(), q, s, Options{MaxRefinements: 8})
		if !loops && (a.Verdict == Unknown || b.Verdict == Unknown) {
			t.Errorf("program %d: loop-free, got %s (%s) and, rewritten, %s (%s)", i, a.Verdict, a.Reason, b.Verdict, b.Reason)
			continue
		}
		if a.Verdict != Unknown && b.Verdict != Unknown && a.Verdict != b.Verdict {
			t.Errorf("program %d: %s, rewritten %s\n%s\nrewritten:\n%s", i, a.Verdict, b.Verdict, p, q)
		}
	}
	t.Logf("%d of %d programs rewritten", rewritten, n)
	if rewritten < n/40 {
		t.Errorf("only %d of %d programs had a copy to propagate: the test does not exercise the pass", rewritten, n)
	}
}

// TestSolverUnits: a result reports the solver's work in its
// deterministic units, the same for the same program on a fresh solver.
func TestSolverUnits(t *testing.T) {
	var units []uint64
	for range 2 {
		s := newSolver(t)
		r := CheckLBE(context.Background(), absDiamond(0), s, Options{})
		if r.Stats.SMTQueries == 0 || r.Stats.SolverUnits == 0 {
			t.Fatalf("%s after %d queries with %d solver units: want both > 0", r.Verdict, r.Stats.SMTQueries, r.Stats.SolverUnits)
		}
		units = append(units, r.Stats.SolverUnits)
	}
	if units[0] != units[1] {
		t.Errorf("solver units %d then %d for the same program: want the same", units[0], units[1])
	}
}
