package interleave

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// twoWrites is x := 1; UPDATE (tx 1); x := x + 1; UPDATE(x) (tx 1).
func twoWrites(name string) *ir.Program {
	p := ir.NewProgram(name)
	x := p.NewVar("x", ir.Int, ir.Local)
	l1, l2, l3 := p.NewLoc(), p.NewLoc(), p.NewLoc()
	info := func(line int, kind ir.StepKind) ir.Info {
		return ir.Info{File: "f.go", Line: line, Kind: kind, Text: fmt.Sprint(line)}
	}
	p.AddEdge(p.Entry, l1, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.IntLit(1)}, Info: info(1, ir.KindAssign)})
	p.AddEdge(l1, l2, &ir.Exec{SQL: &sqlir.Update{Table: "t"}, Tx: 1, Info: info(2, ir.KindSQL)})
	p.AddEdge(l2, l3, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.Add(x, ir.IntLit(1))}, Info: info(3, ir.KindAssign)})
	p.AddEdge(l3, p.Exit, &ir.Exec{SQL: &sqlir.Update{Table: "t"}, Args: []ir.Expr{x}, Tx: 1, Info: info(4, ir.KindSQL)})
	return p
}

// paths lists the statement sequences from Entry to Exit of a loop-free
// program, each statement as request:line.
func paths(p *ir.Program) [][]ir.Stmt {
	var out [][]ir.Stmt
	var walk func(l ir.Loc, acc []ir.Stmt)
	walk = func(l ir.Loc, acc []ir.Stmt) {
		if l == p.Exit {
			out = append(out, append([]ir.Stmt(nil), acc...))
			return
		}
		for _, e := range p.Out[l] {
			walk(e.To, append(acc, e.Stmt))
		}
	}
	walk(p.Entry, nil)
	return out
}

// TestProduct: the product of two requests with two database operations
// each has the C(4,2) = 6 orders of the operations, Go statements never
// run between another request's operations, and the requests' variables
// and transactions are their own.
func TestProduct(t *testing.T) {
	a, b := twoWrites("a"), twoWrites("b")
	p, err := Product(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Inputs) != 0 || p.Name != "a ∥ b" {
		t.Errorf("name %q, inputs %v", p.Name, p.Inputs)
	}
	ps := paths(p)
	orders := map[string]bool{}
	for _, path := range ps {
		var ops []string
		running := ""
		started := map[string]bool{}
		for i, s := range path {
			info := s.Source()
			if info.Request == "" {
				t.Fatalf("statement %s without request", s)
			}
			if ex, ok := s.(*ir.Exec); ok {
				ops = append(ops, info.Request)
				want := ir.Tx(1)
				if info.Request == "B" {
					want = 2
				}
				if ex.Tx != want {
					t.Errorf("request %s runs on handle %d, want %d", info.Request, ex.Tx, want)
				}
			}
			// A switch of request happens only at a database operation
			// (or the assignment recording its arguments), or to start a
			// request's Go code before its first operation.
			if running != "" && info.Request != running && info.Kind != ir.KindSQL && started[info.Request] {
				if _, atEnd := path[i-1].(*ir.Exec); !atEnd || path[i-1].Source().Line != 4 {
					t.Errorf("switch to %s at Go statement %s", info.Request, s)
				}
			}
			running = info.Request
			started[running] = true
			for _, v := range ir.Modifies(s) {
				if !strings.HasPrefix(v.Name, info.Request+".") {
					t.Errorf("request %s assigns %s", info.Request, v.Name)
				}
			}
		}
		orders[strings.Join(ops, "")] = true
	}
	if len(orders) != 6 || len(ps) != 6 {
		t.Errorf("%d paths, %d orders of the operations (%v), want 6 and 6", len(ps), len(orders), orders)
	}
	if err := ir.Sanity(p); err != nil {
		t.Error(err)
	}
}

// TestProductArgs: an operation's placeholder values are recorded, under
// the request's name, just before it runs.
func TestProductArgs(t *testing.T) {
	p, err := Product(twoWrites("a"), twoWrites("a"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range p.Edges {
		as, ok := e.Stmt.(*ir.Assign)
		if !ok || as.Info.Line != 4 {
			continue
		}
		n++
		want := as.Info.Request + "." + ArgName(1)
		if len(as.Lhs) != 1 || as.Lhs[0].Name != want || as.Rhs[0].String() != as.Info.Request+".x" {
			t.Errorf("args %s, want %s := %s.x", as, want, as.Info.Request)
		}
		for _, o := range p.Out[e.To] {
			if ex, ok := o.Stmt.(*ir.Exec); !ok || ex.Info.Line != 4 {
				t.Errorf("args not followed by their operation: %s", o.Stmt)
			}
		}
	}
	if n == 0 {
		t.Error("no argument recorded")
	}
}

// TestProductPlan: a plan keeps only its schedules: A's first operation,
// B's first, then A to its end, then B.
func TestProductPlan(t *testing.T) {
	a, b := twoWrites("a"), twoWrites("b")
	if n := MaxOps(a); n != 2 {
		t.Fatalf("MaxOps = %d, want 2", n)
	}
	plans := Switches(false, 2, 2)
	if len(plans) != 8 {
		t.Errorf("%d plans, want 2 first requests × 2 × 2", len(plans))
	}
	if n := len(Switches(true, 2, 2)); n != 4 {
		t.Errorf("%d symmetric plans, want 4", n)
	}
	p, err := ProductPlan([]Segment{{0, 1}, {1, 1}, {0, -1}, {1, -1}}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	orders := map[string]bool{}
	for _, path := range paths(p) {
		var ops []string
		for _, s := range path {
			if _, ok := s.(*ir.Exec); ok {
				ops = append(ops, s.Source().Request)
			}
		}
		orders[strings.Join(ops, "")] = true
	}
	if len(orders) != 1 || !orders["ABAB"] {
		t.Errorf("orders %v, want only ABAB", orders)
	}
}

// TestProductPlanLoop: a request whose operation is in a loop gives a
// finite product (a segment that runs to the end counts no operations).
func TestProductPlanLoop(t *testing.T) {
	p := ir.NewProgram("loop")
	head := p.NewLoc()
	info := ir.Info{File: "f.go", Line: 1, Kind: ir.KindSQL, Text: "UPDATE"}
	p.AddEdge(p.Entry, head, &ir.Assume{Cond: ir.True, Info: info})
	p.AddEdge(head, head, &ir.Exec{SQL: &sqlir.Update{Table: "t"}, Tx: 1, Info: info})
	p.AddEdge(head, p.Exit, &ir.Assume{Cond: ir.True, Info: info})
	for _, plan := range Switches(true, MaxOps(p), MaxOps(p)) {
		if _, err := ProductPlan(plan, p, p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSwitchesOrder: the plans come with the fewest operations first
// (the cheapest products), each (first request, n1, n2) once.
func TestSwitchesOrder(t *testing.T) {
	plans := Switches(false, 3, 2)
	if len(plans) != 12 {
		t.Fatalf("%d plans, want 2 first requests × 3 × 2", len(plans))
	}
	seen := map[[3]int]bool{}
	last := 0
	for _, p := range plans {
		n := p[0].Ops + p[1].Ops
		if n < last {
			t.Errorf("plan %v after one of %d operations", p, last)
		}
		last = n
		k := [3]int{p[0].Request, p[0].Ops, p[1].Ops}
		if seen[k] || p[0].Request == p[1].Request || p[2].Request != p[0].Request || p[3].Request != p[1].Request {
			t.Errorf("plan %v repeated or malformed", p)
		}
		seen[k] = true
	}
}
