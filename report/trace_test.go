package report

import (
	"math/big"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// TestBuildTrace builds a path over row symbols, solves it with Z3, validates
// the model and reads the trace.
func TestBuildTrace(t *testing.T) {
	p := ir.NewProgram("shop.Buy")
	qty := p.NewVar("qty", ir.Int, ir.Input)
	p.Inputs = []*ir.Var{qty}
	col := func(row, c string, kind ir.VarKind, s ir.Sort) *ir.Var {
		v := p.NewVar(row+"."+c, s, kind)
		v.Row, v.Table, v.Col = row, "items", c
		return v
	}
	rstock := col("r", "stock", ir.Column, ir.Int)
	rexists := col("r", "$exists", ir.Ghost, ir.Bool)
	sstock := col("s1", "stock", ir.Column, ir.Int)
	sid := col("s1", "id", ir.Column, ir.Int)
	rid := col("r", "id", ir.Column, ir.Int)
	n := p.NewVar("n", ir.Int, ir.Local)
	dirty := p.NewVar("$dirty", ir.Bool, ir.Ghost)
	psi := func(v ir.Expr) ir.Expr { return ir.Cmp(ir.OpGe, v, ir.IntLit(0)) }
	var path []*ir.Edge
	cur := p.Entry
	step := func(to ir.Loc, s ir.Stmt) {
		path = append(path, p.AddEdge(cur, to, s))
		cur = to
	}
	sel := ir.Info{File: "buy.go", Line: 10, Kind: ir.KindSQL, Text: "SELECT stock FROM items WHERE id = 7"}
	upd := ir.Info{File: "buy.go", Line: 12, Kind: ir.KindSQL, Text: "UPDATE items SET stock = stock - ? WHERE id = 7"}
	step(p.NewLoc(), &ir.Assume{Cond: ir.And(rexists, psi(rstock)), Info: ir.Info{Kind: ir.KindModel}})
	step(p.NewLoc(), &ir.Havoc{Vars: []*ir.Var{sid, sstock}, Info: sel})
	step(p.NewLoc(), &ir.Assume{Cond: ir.And(ir.Eq(sid, ir.IntLit(7)), psi(sstock)), Info: ir.Info{Kind: ir.KindModel, File: "buy.go", Line: 10}})
	step(p.NewLoc(), &ir.Assign{Lhs: []*ir.Var{n, dirty}, Rhs: []ir.Expr{sstock, ir.True}, Info: sel})
	step(p.NewLoc(), &ir.Assume{Cond: ir.Cmp(ir.OpGt, qty, ir.IntLit(0)), Info: ir.Info{File: "buy.go", Line: 11, Kind: ir.KindBranch, Text: "if qty > 0", Outcome: ir.OutcomeTrue}})
	step(p.NewLoc(), &ir.Assign{Lhs: []*ir.Var{rstock}, Rhs: []ir.Expr{ir.IteOf(ir.Eq(rid, ir.IntLit(7)), ir.Sub(rstock, qty), rstock)}, Info: upd})
	step(p.Error, &ir.Assume{Cond: ir.And(rexists, ir.Not(psi(rstock))), Info: upd})

	tr := solvedTrace(t, p, path)
	t.Logf("\n%s", tr)
	if len(tr.Inputs) != 1 || tr.Inputs[0].Name != "qty" {
		t.Errorf("inputs %+v", tr.Inputs)
	}
	if len(tr.Rows) != 2 || tr.Rows[0].Symbol != "r" || tr.Rows[1].Symbol != "s1" {
		t.Fatalf("rows %+v", tr.Rows)
	}
	if _, ok := tr.Rows[0].Values["$exists"]; ok {
		t.Errorf("ghost column shown: %v", tr.Rows[0].Values)
	}
	if tr.Rows[0].Values["id"] != "7" || tr.Rows[1].Values["id"] != "7" || tr.Rows[0].Table != "items" {
		t.Errorf("rows %+v", tr.Rows)
	}
	var steps []string
	for _, st := range tr.Steps {
		steps = append(steps, st.Position+" "+st.Kind)
	}
	if got := strings.Join(steps, ", "); got != "buy.go:10 sql, buy.go:11 branch, buy.go:12 sql" {
		t.Errorf("steps %s", got)
	}
	if v := tr.Steps[0].Values; v["n"] != tr.Rows[1].Values["stock"] || v["s1.stock"] == "" {
		t.Errorf("select step values %v (s1 %v)", v, tr.Rows[1].Values)
	}
	if _, ok := tr.Steps[0].Values["$dirty"]; ok {
		t.Errorf("ghost variable in step values: %v", tr.Steps[0].Values)
	}
	stock, _ := new(big.Int).SetString(tr.Violation.Values["stock"], 10)
	if stock == nil || stock.Sign() >= 0 || tr.Steps[2].Values["r.stock"] != tr.Violation.Values["stock"] {
		t.Errorf("violation %+v, update step %v", tr.Violation, tr.Steps[2].Values)
	}
}

// TestTraceOutside: the values a path reads from a call outside the
// analysed code (a decoded body's field, a parsed number) are listed
// with the value read; an error flag, an input and a value never read
// are not.
func TestTraceOutside(t *testing.T) {
	p := ir.NewProgram("h.Redeem")
	amt := p.NewVar("req.Amount", ir.Int, ir.Local)
	code := p.NewVar("req.Code", ir.Int, ir.Local)
	failed := p.NewVar("ShouldBindJSON()", ir.Bool, ir.Local)
	parsed := p.NewVar("ParseInt(s, 10, 64).0", ir.Int, ir.Local)
	var path []*ir.Edge
	cur := p.Entry
	step := func(to ir.Loc, s ir.Stmt) {
		path = append(path, p.AddEdge(cur, to, s))
		cur = to
	}
	call := ir.Info{File: "h.go", Line: 5, Kind: ir.KindCall, Text: "c.ShouldBindJSON(&req)"}
	step(p.NewLoc(), &ir.Havoc{Vars: []*ir.Var{amt, code, failed}, Info: call})
	step(p.NewLoc(), &ir.Assume{Cond: ir.Not(failed), Info: ir.Info{File: "h.go", Line: 5, Kind: ir.KindBranch}})
	step(p.NewLoc(), &ir.Havoc{Vars: []*ir.Var{parsed}, Info: ir.Info{File: "h.go", Line: 6, Kind: ir.KindCall}})
	step(p.Error, &ir.Assume{Cond: ir.And(ir.Cmp(ir.OpLt, amt, ir.IntLit(0)), ir.Eq(parsed, ir.IntLit(7))), Info: ir.Info{File: "h.go", Line: 7, Kind: ir.KindBranch}})
	tr := solvedTrace(t, p, path)
	got := map[string]string{}
	for _, b := range tr.Outside {
		got[b.Name] = b.Value
	}
	if len(got) != 2 || got["ParseInt(s, 10, 64).0"] != "7" || !strings.HasPrefix(got["req.Amount"], "-") {
		t.Errorf("outside values %v, want req.Amount < 0 and ParseInt(…).0 = 7 only (not req.Code, never read; not the error flag)", got)
	}
	var b strings.Builder
	writeCounterexample(&b, tr, nil, false)
	if !strings.Contains(b.String(), "  outside:   req.Amount = ") {
		t.Errorf("text output has no outside line:\n%s", b.String())
	}
}

// TestTraceElements: an input slice's element read afresh in each of as
// many iterations as the slice's length is listed per element, in the
// order read (a replay sets each); read fewer times, it stands for every
// element.
func TestTraceElements(t *testing.T) {
	for _, tc := range []struct {
		reads int
		want  string
	}{
		{2, "len(ids) = 2, ids[0] = 5, ids[1] = 7"},
		{1, "len(ids) = 2, ids[i] = 5"},
	} {
		p := ir.NewProgram("b.Charge")
		n := p.NewVar("len(ids)", ir.Int, ir.Input)
		e := p.NewVar("ids[i]", ir.Int, ir.Input)
		p.Inputs = []*ir.Var{n}
		var path []*ir.Edge
		cur := p.Entry
		step := func(to ir.Loc, s ir.Stmt) {
			path = append(path, p.AddEdge(cur, to, s))
			cur = to
		}
		step(p.NewLoc(), &ir.Assume{Cond: ir.Eq(n, ir.IntLit(2)), Info: ir.Info{File: "b.go", Line: 1, Kind: ir.KindBranch}})
		for k, v := range []int64{5, 7}[:tc.reads] {
			step(p.NewLoc(), &ir.Havoc{Vars: []*ir.Var{e}, Info: ir.Info{File: "b.go", Line: 2, Kind: ir.KindCall}})
			to := p.NewLoc()
			if k == tc.reads-1 {
				to = p.Error
			}
			step(to, &ir.Assume{Cond: ir.Eq(e, ir.IntLit(v)), Info: ir.Info{File: "b.go", Line: 3, Kind: ir.KindBranch}})
		}
		tr := solvedTrace(t, p, path)
		var got []string
		for _, b := range tr.Inputs {
			got = append(got, b.Name+" = "+b.Value)
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%d reads: inputs %q, want %q", tc.reads, strings.Join(got, ", "), tc.want)
		}
	}
}

// solvedTrace solves path's formula with Z3, validates the model and
// reads the trace off it.
func solvedTrace(t *testing.T, p *ir.Program, path []*ir.Edge) *Counterexample {
	t.Helper()
	pf, err := vcgen.Build(p, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(pf.Formula()); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != smt.Sat {
		t.Fatalf("check: %v %v", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if err := vcgen.Validate(pf, m); err != nil {
		t.Fatalf("Z3's model fails validation: %v", err)
	}
	tr, err := BuildTrace(pf, m)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
