package refine

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/abstraction"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

func info(line int, kind ir.StepKind, text string) ir.Info {
	return ir.Info{File: "atm.go", Line: line, Kind: kind, Text: text}
}

func model(text string) ir.Info { return ir.Info{Kind: ir.KindModel, Text: text} }

func lit(n int64) ir.Expr { return ir.IntLit(n) }

// atmVars are the variables of the hand-lowered ATM withdraw.
type atmVars struct {
	acc, amt, raccno, rbal, s1accno, s1bal, bal *ir.Var
}

func newATMVars(p *ir.Program) atmVars {
	col := func(row, c string) *ir.Var {
		v := p.NewVar(row+"."+c, ir.Int, ir.Column)
		v.Row, v.Table, v.Col = row, "accounts", c
		return v
	}
	var a atmVars
	a.acc = p.NewVar("acc", ir.Int, ir.Input)
	a.amt = p.NewVar("amt", ir.Int, ir.Input)
	p.Inputs = []*ir.Var{a.acc, a.amt}
	a.raccno, a.rbal = col("r", "accno"), col("r", "balance")
	a.s1accno, a.s1bal = col("s1", "accno"), col("s1", "balance")
	a.bal = p.NewVar("bal", ir.Int, ir.Local)
	return a
}

// atm builds the seed paper's withdraw, lowered by hand for the constraint
// accounts.balance >= 1000 (minbal). Without balanceCheck the branch
// "bal - amt >= minbal" is missing and the program is unsafe.
func atm(balanceCheck bool) *ir.Program {
	p := ir.NewProgram("atm.withdraw")
	a := newATMVars(p)
	psi := func(bal ir.Expr) ir.Expr { return ir.Cmp(ir.OpGe, bal, lit(1000)) }
	cur := p.Entry
	step := func(s ir.Stmt) {
		next := p.NewLoc()
		p.AddEdge(cur, next, s)
		cur = next
	}
	step(&ir.Assume{Cond: psi(a.rbal), Info: model("assume psi(r)")})
	sel := info(5, ir.KindSQL, "select balance from Account where Accno = ?")
	step(&ir.Havoc{Vars: []*ir.Var{a.s1accno, a.s1bal}, Info: sel})
	step(&ir.Assume{Cond: ir.Eq(a.s1accno, a.acc), Info: model("where(s1)")})
	step(&ir.Assume{Cond: ir.Implies(ir.Eq(a.s1accno, a.raccno), ir.Eq(a.s1bal, a.rbal)), Info: model("key alias s1 = r")})
	step(&ir.Assume{Cond: psi(a.s1bal), Info: model("assume psi(s1)")})
	step(&ir.Assign{Lhs: []*ir.Var{a.bal}, Rhs: []ir.Expr{a.s1bal}, Info: sel})
	// if amt <= 10000
	// (Each way carries its outcome, as the frontend's branches do.)
	guard := info(6, ir.KindBranch, "if amt <= 10000")
	guardTrue, guardFalse := guard, guard
	guardTrue.Outcome, guardFalse.Outcome = ir.OutcomeTrue, ir.OutcomeFalse
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpGt, a.amt, lit(10000)), Info: guardFalse})
	step(&ir.Assume{Cond: ir.Cmp(ir.OpLe, a.amt, lit(10000)), Info: guardTrue})
	if balanceCheck {
		g := info(7, ir.KindBranch, "if bal - amt >= minbal")
		gTrue, gFalse := g, g
		gTrue.Outcome, gFalse.Outcome = ir.OutcomeTrue, ir.OutcomeFalse
		p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpLt, ir.Sub(a.bal, a.amt), lit(1000)), Info: gFalse})
		step(&ir.Assume{Cond: ir.Cmp(ir.OpGe, ir.Sub(a.bal, a.amt), lit(1000)), Info: gTrue})
	}
	upd := info(8, ir.KindSQL, "update Account set balance = balance - amt where Accno = ?")
	step(&ir.Assign{
		Lhs:  []*ir.Var{a.rbal},
		Rhs:  []ir.Expr{ir.IteOf(ir.Eq(a.raccno, a.acc), ir.Sub(a.rbal, a.amt), a.rbal)},
		Info: upd,
	})
	p.AddEdge(cur, p.Error, &ir.Assume{Cond: ir.Not(psi(a.rbal)), Info: upd})
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: psi(a.rbal), Info: upd})
	return p
}

// counterLoop builds
//
//	for i := 0; i < n; i++ { UPDATE t SET v = v + 1 WHERE id = k }
//
// with the check v >= 0 after each update (auto-commit).
func counterLoop() *ir.Program {
	p := ir.NewProgram("loop.bump")
	n := p.NewVar("n", ir.Int, ir.Input)
	k := p.NewVar("k", ir.Int, ir.Input)
	p.Inputs = []*ir.Var{n, k}
	rid := p.NewVar("r.id", ir.Int, ir.Column)
	rid.Row, rid.Table, rid.Col = "r", "t", "id"
	rv := p.NewVar("r.v", ir.Int, ir.Column)
	rv.Row, rv.Table, rv.Col = "r", "t", "v"
	i := p.NewVar("i", ir.Int, ir.Local)
	psi := ir.Cmp(ir.OpGe, rv, lit(0))
	l1, head, body, check := p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, l1, &ir.Assume{Cond: psi, Info: model("assume psi(r)")})
	p.AddEdge(l1, head, &ir.Assign{Lhs: []*ir.Var{i}, Rhs: []ir.Expr{lit(0)}, Info: ir.Info{File: "loop.go", Line: 3, Kind: ir.KindAssign, Text: "i := 0"}})
	cond := ir.Info{File: "loop.go", Line: 3, Kind: ir.KindBranch, Text: "i < n"}
	p.AddEdge(head, body, &ir.Assume{Cond: ir.Cmp(ir.OpLt, i, n), Info: cond})
	p.AddEdge(head, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpGe, i, n), Info: cond})
	upd := ir.Info{File: "loop.go", Line: 4, Kind: ir.KindSQL, Text: "UPDATE t SET v = v + 1 WHERE id = ?"}
	p.AddEdge(body, check, &ir.Assign{Lhs: []*ir.Var{rv}, Rhs: []ir.Expr{ir.IteOf(ir.Eq(rid, k), ir.Add(rv, lit(1)), rv)}, Info: upd})
	p.AddEdge(check, p.Error, &ir.Assume{Cond: ir.Not(psi), Info: upd})
	after := p.NewLoc()
	p.AddEdge(check, after, &ir.Assume{Cond: psi, Info: upd})
	p.AddEdge(after, head, &ir.Assign{Lhs: []*ir.Var{i}, Rhs: []ir.Expr{ir.Add(i, lit(1))}, Info: ir.Info{File: "loop.go", Line: 3, Kind: ir.KindAssign, Text: "i++"}})
	return p
}

// exactCount builds
//
//	x := 0; while x < 1000 { x := x + 1 }; check x == 1000
//
// which needs the loop invariant x <= 1000, found from x >= 999.
func exactCount() *ir.Program {
	p := ir.NewProgram("loop.count")
	x := p.NewVar("x", ir.Int, ir.Local)
	head := p.NewLoc()
	in := ir.Info{File: "count.go", Line: 2, Kind: ir.KindAssign, Text: "x := 0"}
	p.AddEdge(p.Entry, head, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{lit(0)}, Info: in})
	body := p.NewLoc()
	c := ir.Info{File: "count.go", Line: 3, Kind: ir.KindBranch, Text: "x < 1000"}
	p.AddEdge(head, body, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(1000)), Info: c})
	p.AddEdge(body, head, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(1))}, Info: ir.Info{File: "count.go", Line: 4, Kind: ir.KindAssign, Text: "x++"}})
	out := p.NewLoc()
	p.AddEdge(head, out, &ir.Assume{Cond: ir.Cmp(ir.OpGe, x, lit(1000)), Info: c})
	chk := ir.Info{File: "count.go", Line: 6, Kind: ir.KindBranch, Text: "check x == 1000"}
	p.AddEdge(out, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpNe, x, lit(1000)), Info: chk})
	p.AddEdge(out, p.Exit, &ir.Assume{Cond: ir.Eq(x, lit(1000)), Info: chk})
	return p
}

// evenStep builds a loop whose proof needs "x is even", which no linear
// predicate expresses:
//
//	x := 0; while * { x := x + 2 }; check x != 1
//
// every refinement learns one more odd value x cannot have (x == -1,
// x == -3, …), so CEGAR diverges and must stop at its limit.
func evenStep() *ir.Program {
	p := ir.NewProgram("loop.even")
	x := p.NewVar("x", ir.Int, ir.Local)
	head, body, out := p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, head, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{lit(0)}, Info: ir.Info{File: "even.go", Line: 2, Kind: ir.KindAssign, Text: "x := 0"}})
	c := ir.Info{File: "even.go", Line: 3, Kind: ir.KindBranch, Text: "for more()"}
	p.AddEdge(head, body, &ir.Assume{Cond: ir.True, Info: c})
	p.AddEdge(head, out, &ir.Assume{Cond: ir.True, Info: c})
	p.AddEdge(body, head, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(2))}, Info: ir.Info{File: "even.go", Line: 4, Kind: ir.KindAssign, Text: "x += 2"}})
	chk := ir.Info{File: "even.go", Line: 6, Kind: ir.KindBranch, Text: "check x != 1"}
	p.AddEdge(out, p.Error, &ir.Assume{Cond: ir.Eq(x, lit(1)), Info: chk})
	p.AddEdge(out, p.Exit, &ir.Assume{Cond: ir.Cmp(ir.OpNe, x, lit(1)), Info: chk})
	return p
}

func newSolver(t testing.TB) *smt.Solver {
	t.Helper()
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		prog    func() *ir.Program
		opt     Options
		verdict Verdict
		reason  string // substring of Reason
	}{
		{"atm safe", func() *ir.Program { return atm(true) }, Options{}, Safe, ""},
		{"atm unsafe", func() *ir.Program { return atm(false) }, Options{}, Unsafe, ""},
		{"counter loop", counterLoop, Options{}, Safe, ""},
		{"count loop", exactCount, Options{}, Safe, ""},
		{"refinement limit", evenStep, Options{MaxRefinements: 3}, Unknown, "refinement limit 3 reached"},
		// As in the seed paper: the guards first (amt <= 10000), then the
		// weakest precondition of the debit (balance - amt >= minbal).
		{"atm two refinements", func() *ir.Program { return atm(true) }, Options{MaxRefinements: 2}, Safe, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(t)
			p := tc.prog()
			if err := ir.Sanity(p); err != nil {
				t.Fatal(err)
			}
			opt := tc.opt
			opt.KeepBoolProg = true
			res := Check(context.Background(), p, s, opt)
			t.Logf("%s: %s %s; %d refinements, predicates %q, stats %+v", tc.name, res.Verdict, res.Reason, res.Refinements, res.Predicates, res.Stats)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tc.verdict, res.BoolProg)
			}
			if !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", res.Reason, tc.reason)
			}
			if res.Verdict == Unknown && res.Reason == "" {
				t.Errorf("UNKNOWN without a reason")
			}
			if res.Stats.Iterations == 0 || res.Stats.SMTQueries == 0 {
				t.Errorf("stats not filled: %+v", res.Stats)
			}
		})
	}
}

// TestATMSafePredicates checks the proof of the paper's example uses the
// paper's predicates (up to canonical form).
func TestATMSafePredicates(t *testing.T) {
	s := newSolver(t)
	p := atm(true)
	res := Check(context.Background(), p, s, Options{KeepBoolProg: true})
	if res.Verdict != Safe {
		t.Fatalf("verdict %s: %s", res.Verdict, res.Reason)
	}
	has := func(text string) bool {
		for _, q := range res.Predicates {
			if q == text {
				return true
			}
		}
		return false
	}
	for _, want := range []string{"r.balance >= 1000", "amt <= 10000", "(r.balance - amt) >= 1000"} {
		if !has(want) {
			t.Errorf("predicates %q lack %q", res.Predicates, want)
		}
	}
	// The same check, semantically: some predicate is equivalent to
	// r.balance - amt >= 1000 (or its negation).
	vars := map[string]*ir.Var{}
	for _, v := range p.Vars {
		vars[v.Name] = v
	}
	target := ir.Cmp(ir.OpGe, ir.Sub(vars["r.balance"], vars["amt"]), lit(1000))
	found := false
	for _, q := range res.Predicates {
		if q == abstraction.Key(target) {
			found = true
		}
	}
	if !found {
		t.Errorf("no predicate equivalent to %s in %q", target, res.Predicates)
	}
	if !strings.Contains(res.BoolProg, "choose(") && !strings.Contains(res.BoolProg, ":=") {
		t.Errorf("boolean program has no assignment:\n%s", res.BoolProg)
	}
}

func TestATMUnsafeTrace(t *testing.T) {
	s := newSolver(t)
	p := atm(false)
	res := Check(context.Background(), p, s, Options{})
	if res.Verdict != Unsafe {
		t.Fatalf("verdict %s: %s", res.Verdict, res.Reason)
	}
	tr := res.Trace
	if tr == nil {
		t.Fatal("no trace")
	}
	t.Logf("trace:\n%s", tr)
	if res.Position != "atm.go:8" {
		t.Errorf("position %q, want atm.go:8", res.Position)
	}
	num := func(s string) *big.Int {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("not a number: %q", s)
		}
		return n
	}
	if b := num(tr.Violation.Values["balance"]); b.Cmp(big.NewInt(1000)) >= 0 {
		t.Errorf("violation balance %s, want < 1000", b)
	}
	if tr.Violation.Table != "accounts" {
		t.Errorf("violation table %q", tr.Violation.Table)
	}
	inputs := map[string]string{}
	for _, in := range tr.Inputs {
		inputs[in.Name] = in.Value
	}
	if len(tr.Inputs) != 2 || tr.Inputs[0].Name != "acc" || tr.Inputs[1].Name != "amt" {
		t.Errorf("inputs %+v, want acc, amt", tr.Inputs)
	}
	if amt := num(inputs["amt"]); amt.Sign() <= 0 {
		t.Errorf("amt = %s, want > 0", amt)
	}
	if len(tr.Rows) != 2 || tr.Rows[0].Symbol != "r" || tr.Rows[1].Symbol != "s1" {
		t.Fatalf("rows %+v, want r and s1", tr.Rows)
	}
	if b := num(tr.Rows[0].Values["balance"]); b.Cmp(big.NewInt(1000)) < 0 {
		t.Errorf("initial balance %s violates the constraint on entry", b)
	}
	if tr.Rows[0].Values["accno"] != inputs["acc"] {
		t.Errorf("the watched row %v is not the account withdrawn from (acc = %s)", tr.Rows[0].Values, inputs["acc"])
	}
	var kinds []string
	for _, st := range tr.Steps {
		kinds = append(kinds, st.Kind+"@"+st.Position)
	}
	if got := strings.Join(kinds, " "); got != "sql@atm.go:5 branch@atm.go:6 sql@atm.go:8" {
		t.Errorf("steps %s", got)
	}
	last := tr.Steps[len(tr.Steps)-1]
	if last.Values["r.balance"] != tr.Violation.Values["balance"] {
		t.Errorf("update step values %v, violation %v", last.Values, tr.Violation.Values)
	}
}

func TestUnknownReasons(t *testing.T) {
	s := newSolver(t)
	// Not lowered: an Exec statement.
	p := ir.NewProgram("raw")
	p.AddEdge(p.Entry, p.Error, &ir.Exec{Info: ir.Info{File: "raw.go", Line: 1, Kind: ir.KindSQL, Text: "UPDATE t SET x = 1"}})
	res := Check(context.Background(), p, s, Options{})
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "lowered") {
		t.Errorf("raw program: %s %q", res.Verdict, res.Reason)
	}
	// Unsupported construct.
	q := atm(true)
	q.Unsupport("goroutine", ir.Info{File: "atm.go", Line: 3})
	res = Check(context.Background(), q, s, Options{})
	if res.Verdict != Unknown || res.Position != "atm.go:3" {
		t.Errorf("unsupported: %s %q at %q", res.Verdict, res.Reason, res.Position)
	}
	// Nil inputs.
	if res := Check(context.Background(), nil, s, Options{}); res.Verdict != Unknown {
		t.Errorf("nil program: %s", res.Verdict)
	}
	// Time limit.
	res = Check(context.Background(), atm(true), s, Options{Timeout: time.Nanosecond})
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "time limit") {
		t.Errorf("time limit: %s %q", res.Verdict, res.Reason)
	}
	// Abstract state limit.
	res = Check(context.Background(), atm(true), s, Options{MaxStates: 1})
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "abstract state limit") {
		t.Errorf("state limit: %s %q", res.Verdict, res.Reason)
	}
	// Predicate limit.
	res = Check(context.Background(), atm(true), s, Options{MaxPredicates: 2})
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "predicate limit 2") {
		t.Errorf("predicate limit: %s %q", res.Verdict, res.Reason)
	}
}

// TestSeeds: with the paper's three predicates as seeds, the ATM is proved
// without refinement.
func TestSeeds(t *testing.T) {
	s := newSolver(t)
	p := atm(true)
	v := map[string]*ir.Var{}
	for _, x := range p.Vars {
		v[x.Name] = x
	}
	seeds := []ir.Expr{
		ir.Cmp(ir.OpGe, v["bal"], lit(1000)),
		ir.Cmp(ir.OpLe, v["amt"], lit(10000)),
		ir.Cmp(ir.OpGe, ir.Sub(v["r.balance"], v["amt"]), lit(1000)),
		ir.Cmp(ir.OpGe, ir.Sub(v["s1.balance"], v["amt"]), lit(1000)),
		ir.Cmp(ir.OpGe, ir.Sub(v["bal"], v["amt"]), lit(1000)),
		ir.Eq(v["r.accno"], v["acc"]),
		ir.Eq(v["s1.accno"], v["acc"]),
		ir.Eq(v["s1.accno"], v["r.accno"]),
		ir.Eq(v["s1.balance"], v["r.balance"]),
	}
	res := Check(context.Background(), p, s, Options{Seeds: seeds, MaxRefinements: 1})
	if res.Verdict != Safe || res.Refinements != 0 {
		t.Errorf("%s after %d refinements (%s), want SAFE after 0", res.Verdict, res.Refinements, res.Reason)
	}
}

// TestNewPredicates follows the WP chain of the ATM's path to Error.
func TestNewPredicates(t *testing.T) {
	p := atm(true)
	// The path to Error through the balance check.
	var path []*ir.Edge
	at := p.Entry
	for at != p.Error {
		out := p.Out[at]
		e := out[len(out)-1]
		for _, c := range out {
			if c.To == p.Error {
				e = c
			}
		}
		if e.To == p.Exit {
			e = out[0]
		}
		path = append(path, e)
		at = e.To
	}
	var texts []string
	for _, e := range NewPredicates(path) {
		texts = append(texts, e.String())
	}
	got := strings.Join(texts, "; ")
	for _, want := range []string{"r.balance >= 1000", "acc == r.accno", "(r.balance - amt) >= 1000", "(bal - amt) >= 1000", "amt <= 10000", "(s1.balance - amt) >= 1000", "acc == s1.accno", "r.accno == s1.accno", "r.balance == s1.balance"} {
		if !strings.Contains(got, want) {
			t.Errorf("NewPredicates = %s; lacks %s", got, want)
		}
	}
	for _, e := range NewPredicates(path) {
		if u, ok := e.(*ir.Unary); ok && u.Op == ir.OpNot {
			t.Errorf("negated predicate %s", e)
		}
	}
}

func BenchmarkCheckATM(b *testing.B) {
	for _, bc := range []struct {
		name string
		safe bool
	}{{"safe", true}, {"unsafe", false}} {
		b.Run(bc.name, func(b *testing.B) {
			queries, states := 0, 0
			for b.Loop() {
				s, err := smt.NewSolver(10000)
				if err != nil {
					b.Fatal(err)
				}
				res := Check(context.Background(), atm(bc.safe), s, Options{})
				s.Close()
				if (res.Verdict == Safe) != bc.safe {
					b.Fatalf("verdict %s: %s", res.Verdict, res.Reason)
				}
				queries += res.Stats.SMTQueries
				states += res.Stats.States
			}
			b.ReportMetric(float64(queries)/float64(b.N), "smt-queries/op")
			b.ReportMetric(float64(states)/float64(b.N), "states/op")
		})
	}
}

// TestEliminate: atoms over a havoced row symbol are carried over to the
// terms its equalities define (s.id == k, r.id == s.id give k == r.id),
// and inequalities on a havoced value are combined (Fourier-Motzkin).
func TestEliminate(t *testing.T) {
	p := ir.NewProgram("elim")
	v := func(name string) *ir.Var { return p.NewVar(name, ir.Int, ir.Local) }
	k, rid, rv, sid, sv, x := v("k"), v("r.id"), v("r.v"), v("s.id"), v("s.v"), v("x")
	w, free, rb, rc := v("w"), v("free"), v("r.b"), v("r.c")
	var path []*ir.Edge
	cur := p.Entry
	step := func(s ir.Stmt) {
		next := p.NewLoc()
		path = append(path, p.AddEdge(cur, next, s))
		cur = next
	}
	step(&ir.Havoc{Vars: []*ir.Var{sid, sv}})
	step(&ir.Assume{Cond: ir.Eq(sid, k)})
	step(&ir.Assume{Cond: ir.Implies(ir.Eq(rid, sid), ir.Eq(sv, rv))})
	step(&ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{sv}})
	step(&ir.Havoc{Vars: []*ir.Var{w}})
	step(&ir.Assume{Cond: ir.Cmp(ir.OpLe, w, free)})
	step(&ir.Assume{Cond: ir.Cmp(ir.OpGt, ir.Add(rb, w), rc)})
	step(&ir.Assume{Cond: ir.Cmp(ir.OpLt, x, lit(0))})
	var texts []string
	for _, e := range NewPredicates(path) {
		texts = append(texts, e.String())
	}
	got := strings.Join(texts, "; ")
	for _, want := range []string{"k == r.id", "r.v >= 0", "(free + r.b) <= r.c"} {
		if !strings.Contains(got, want) {
			t.Errorf("NewPredicates = %s; lacks %s", got, want)
		}
	}
}
