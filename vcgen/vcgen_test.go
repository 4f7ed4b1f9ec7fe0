package vcgen

import (
	"math/big"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

func lit(n int64) ir.Expr { return ir.IntLit(n) }

// mapModel is a Model given by hand.
type mapModel map[string]int64

func (m mapModel) Value(v *ir.Var) (ir.Value, bool) {
	n, ok := m[v.Name]
	if !ok {
		return ir.Value{}, false
	}
	if v.Type == ir.Bool {
		return ir.BoolValue(n != 0), true
	}
	return ir.NumValue(v.Type, big.NewRat(n, 1)), true
}

// prog is
//
//	L0 -> L3: x := x + 1        (a.go:1)
//	L3 -> L4: assume x > 0      (a.go:2)
//	L4 -> L5: havoc x, y        (a.go:3)
//	L5 -> ERR: assume x < y     (a.go:4)
func prog() (*ir.Program, []*ir.Edge, *ir.Var, *ir.Var) {
	p := ir.NewProgram("p")
	x := p.NewVar("x", ir.Int, ir.Input)
	y := p.NewVar("y", ir.Int, ir.Local)
	p.Inputs = []*ir.Var{x}
	l3, l4, l5 := p.NewLoc(), p.NewLoc(), p.NewLoc()
	at := func(n int, k ir.StepKind, text string) ir.Info {
		return ir.Info{File: "a.go", Line: n, Kind: k, Text: text}
	}
	path := []*ir.Edge{
		p.AddEdge(p.Entry, l3, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, lit(1))}, Info: at(1, ir.KindAssign, "x++")}),
		p.AddEdge(l3, l4, &ir.Assume{Cond: ir.Cmp(ir.OpGt, x, lit(0)), Info: at(2, ir.KindBranch, "if x > 0")}),
		p.AddEdge(l4, l5, &ir.Havoc{Vars: []*ir.Var{x, y}, Info: at(3, ir.KindCall, "x, y = f()")}),
		p.AddEdge(l5, p.Error, &ir.Assume{Cond: ir.Cmp(ir.OpLt, x, y), Info: at(4, ir.KindBranch, "if x < y")}),
	}
	return p, path, x, y
}

func TestRenaming(t *testing.T) {
	p, path, x, y := prog()
	pf, err := Build(p, path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range pf.Steps {
		got = append(got, st.Constraint.String())
	}
	want := []string{"x@1 == (x@0 + 1)", "x@1 > 0", "true", "x@2 < y@1"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("steps %q, want %q", got, want)
	}
	if v := pf.Init[x]; v == nil || v.Name != "x@0" {
		t.Errorf("Init[x] = %v", v)
	}
	if _, ok := pf.Init[y]; ok {
		t.Errorf("y is defined before any use: no version 0 expected")
	}
	x2 := pf.Steps[2].After[x]
	if o := pf.Origin[x2]; o.Orig != x || o.N != 2 || x2.Kind != ir.Input || x2.Type != ir.Int {
		t.Errorf("x@2: origin %+v, kind %v", o, x2.Kind)
	}
	if b := pf.Before(1)[x]; b.Name != "x@1" {
		t.Errorf("before step 1, x is %s", b.Name)
	}
	if got := pf.Formula().String(); !strings.Contains(got, "x@2 < y@1") {
		t.Errorf("formula %s", got)
	}
}

func TestValidate(t *testing.T) {
	p, path, _, _ := prog()
	pf, err := Build(p, path)
	if err != nil {
		t.Fatal(err)
	}
	good := mapModel{"x@0": 4, "x@1": 5, "x@2": 1, "y@1": 2}
	if err := Validate(pf, good); err != nil {
		t.Errorf("good model rejected: %v", err)
	}
	for name, m := range map[string]mapModel{
		"wrong assignment": {"x@0": 4, "x@1": 6, "x@2": 1, "y@1": 2},
		"failed assume":    {"x@0": -1, "x@1": 0, "x@2": 1, "y@1": 2},
		"not at error":     {"x@0": 4, "x@1": 5, "x@2": 3, "y@1": 2},
		"missing value":    {"x@0": 4, "x@1": 5, "x@2": 1},
	} {
		if err := Validate(pf, m); err == nil {
			t.Errorf("%s: model accepted", name)
		}
	}
	short, err := Build(p, path[:2])
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(short, good); err == nil || !strings.Contains(err.Error(), "error location") {
		t.Errorf("path not reaching Error accepted: %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	p, path, _, _ := prog()
	if _, err := Build(p, []*ir.Edge{path[0], path[2]}); err == nil {
		t.Error("broken path accepted")
	}
	q := ir.NewProgram("raw")
	e := q.AddEdge(q.Entry, q.Error, &ir.TxOp{Op: ir.Commit})
	if _, err := Build(q, []*ir.Edge{e}); err == nil || !strings.Contains(err.Error(), "lowered") {
		t.Errorf("unlowered statement: %v", err)
	}
}

// TestApproxReads: an over-approximated value matters only when it
// reaches a condition of the path, directly or through assignments.
func TestApproxReads(t *testing.T) {
	const note = "an element of xs (a.go:1)"
	tests := []struct {
		name string
		body func(e, c, y *ir.Var) []ir.Stmt
		want []string
	}{
		{"copied, never tested", func(e, c, y *ir.Var) []ir.Stmt {
			return []ir.Stmt{&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{e}}, &ir.Assume{Cond: ir.Cmp(ir.OpGt, y, lit(0))}}
		}, nil},
		{"tested directly", func(e, c, y *ir.Var) []ir.Stmt {
			return []ir.Stmt{&ir.Assume{Cond: ir.Cmp(ir.OpGt, e, lit(0))}}
		}, []string{note}},
		{"tested through a copy", func(e, c, y *ir.Var) []ir.Stmt {
			return []ir.Stmt{&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{ir.Add(e, lit(1))}}, &ir.Assume{Cond: ir.Cmp(ir.OpLt, c, y)}}
		}, []string{note}},
		{"copy overwritten before the test", func(e, c, y *ir.Var) []ir.Stmt {
			return []ir.Stmt{
				&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{e}},
				&ir.Havoc{Vars: []*ir.Var{c}},
				&ir.Assume{Cond: ir.Cmp(ir.OpLt, c, y)},
			}
		}, nil},
		// The row model's check of the constraint, passed: had the real
		// value broken it, the run would have been a violation there.
		{"passed constraint check", func(e, c, y *ir.Var) []ir.Stmt {
			check := ir.Info{Kind: ir.KindModel, Text: "check t.col >= 0"}
			return []ir.Stmt{
				&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{e}},
				&ir.Assume{Cond: ir.Cmp(ir.OpGe, c, lit(0)), Info: check},
				&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{ir.Sub(y, lit(1))}},
				&ir.Assume{Cond: ir.Cmp(ir.OpLt, c, lit(0))},
			}
		}, nil},
		{"failed constraint check", func(e, c, y *ir.Var) []ir.Stmt {
			check := ir.Info{Kind: ir.KindModel, Text: "check t.col >= 0"}
			return []ir.Stmt{
				&ir.Assign{Lhs: []*ir.Var{c}, Rhs: []ir.Expr{e}},
				&ir.Assume{Cond: ir.Cmp(ir.OpLt, c, lit(0)), Info: check},
			}
		}, []string{note}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ir.NewProgram("p")
			e := p.NewVar("xs[i]", ir.Int, ir.Local)
			e.Approx = note
			c := p.NewVar("r.col", ir.Int, ir.Local)
			y := p.NewVar("y", ir.Int, ir.Input)
			var path []*ir.Edge
			from := p.Entry
			stmts := tt.body(e, c, y)
			for i, s := range stmts {
				to := p.NewLoc()
				if i == len(stmts)-1 {
					to = p.Error
				}
				path = append(path, p.AddEdge(from, to, s))
				from = to
			}
			pf, err := Build(p, path)
			if err != nil {
				t.Fatal(err)
			}
			if got := pf.ApproxReads(); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("ApproxReads = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFirstReads: the version a variable is first read at, not the one it
// is first mentioned at. An input havocked at entry and again before any
// read (a slice element read afresh in a loop) is shown as read.
func TestFirstReads(t *testing.T) {
	p, path, x, y := prog()
	pf, err := Build(p, path)
	if err != nil {
		t.Fatal(err)
	}
	reads := pf.FirstReads()
	if v := reads[x]; v == nil || v.Name != "x@0" {
		t.Errorf("x first read at %v, want x@0", v)
	}
	if v := reads[y]; v == nil || v.Name != "y@1" {
		t.Errorf("y first read at %v, want y@1", v)
	}

	q := ir.NewProgram("q")
	e := q.NewVar("e", ir.Int, ir.Input)
	q.Inputs = []*ir.Var{e}
	l1, l2 := q.NewLoc(), q.NewLoc()
	qpath := []*ir.Edge{
		q.AddEdge(q.Entry, l1, &ir.Havoc{Vars: []*ir.Var{e}}),
		q.AddEdge(l1, l2, &ir.Havoc{Vars: []*ir.Var{e}}),
		q.AddEdge(l2, q.Error, &ir.Assume{Cond: ir.Cmp(ir.OpGt, e, lit(0))}),
	}
	qf, err := Build(q, qpath)
	if err != nil {
		t.Fatal(err)
	}
	if v := qf.FirstVersions()[e]; v == nil || v.Name != "e@1" {
		t.Errorf("FirstVersions[e] = %v, want e@1 (the entry havoc)", v)
	}
	if v := qf.FirstReads()[e]; v == nil || v.Name != "e@2" {
		t.Errorf("FirstReads[e] = %v, want e@2 (the value the assume reads)", v)
	}
}
