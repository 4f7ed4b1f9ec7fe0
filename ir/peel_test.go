package ir

import "testing"

func TestPeelCountedLoops(t *testing.T) {
	build := func(op Op, init, bound int64, viaTemp, doubleInc bool) *Program {
		p := NewProgram("loop")
		x := p.NewVar("x", Int, Local)
		i := p.NewVar("i", Int, Local)
		tmp := p.NewVar("t", Int, Local)
		pre, head, body, exit := p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()
		p.AddEdge(p.Entry, pre, &Assign{Lhs: []*Var{x}, Rhs: []Expr{IntLit(0)}})
		p.AddEdge(pre, head, &Assign{Lhs: []*Var{i}, Rhs: []Expr{IntLit(init)}})
		p.AddEdge(head, body, &Assume{Cond: Cmp(op, i, IntLit(bound))})
		p.AddEdge(head, exit, &Assume{Cond: Not(Cmp(op, i, IntLit(bound)))})
		a, b := p.NewLoc(), p.NewLoc()
		p.AddEdge(body, a, &Assign{Lhs: []*Var{x}, Rhs: []Expr{Add(x, IntLit(1))}})
		if viaTemp {
			p.AddEdge(a, b, &Assign{Lhs: []*Var{tmp}, Rhs: []Expr{Add(i, IntLit(1))}})
			p.AddEdge(b, head, &Assign{Lhs: []*Var{i}, Rhs: []Expr{tmp}})
		} else {
			p.AddEdge(a, b, &Assign{Lhs: []*Var{i}, Rhs: []Expr{Add(i, IntLit(1))}})
			if doubleInc {
				c := p.NewLoc()
				p.AddEdge(b, c, &Assign{Lhs: []*Var{i}, Rhs: []Expr{Add(i, IntLit(1))}})
				b = c
			}
			p.AddEdge(b, head, &Assume{Cond: True})
		}
		p.AddEdge(exit, p.Error, &Assume{Cond: Cmp(OpEq, x, IntLit(3))})
		p.AddEdge(exit, p.Exit, &Assume{Cond: Cmp(OpNe, x, IntLit(3))})
		return p
	}
	tests := []struct {
		name            string
		op              Op
		init, bound     int64
		viaTemp, double bool
		peeled          int
		errorPaths      int // paths from Entry to Error once peeled
	}{
		{"i < 3", OpLt, 0, 3, false, false, 1, 1},
		{"i < 3 through a temporary (Go's i++)", OpLt, 0, 3, true, false, 1, 1},
		{"i <= 2", OpLe, 0, 2, false, false, 1, 1},
		{"i != 3 from 1 (two trips: x ends 2)", OpNe, 1, 3, false, false, 1, 1},
		{"too many trips", OpLt, 0, 100, false, false, 0, 0},
		{"i > 5 is not matched", OpGt, 0, 5, false, false, 0, 0},
		{"two increments per trip", OpLt, 0, 3, false, true, 0, 0},
	}
	t.Run("the same program every time", func(t *testing.T) {
		// (The copies' locations were numbered in the order of a map.)
		first := build(OpLt, 0, 3, true, false)
		PeelCountedLoops(first, 8, 1000)
		for range 20 {
			p := build(OpLt, 0, 3, true, false)
			PeelCountedLoops(p, 8, 1000)
			if p.String() != first.String() {
				t.Fatalf("peeled twice, two programs:\n%s\n---\n%s", first, p)
			}
		}
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := build(tc.op, tc.init, tc.bound, tc.viaTemp, tc.double)
			wantEnd, wantX := run(t, p)
			n := PeelCountedLoops(p, 8, 1000)
			if gotEnd, gotX := run(t, p); gotEnd != wantEnd || gotX != wantX {
				t.Fatalf("peeled program ends at L%d with x = %s, the loop at L%d with x = %s", gotEnd, gotX, wantEnd, wantX)
			}
			if n != tc.peeled {
				t.Fatalf("peeled %d loops, want %d:\n%s", n, tc.peeled, p)
			}
			if n == 0 {
				return
			}
			if heads, _ := loopHeads(p); len(heads) != 0 {
				t.Fatalf("loops left at %v:\n%s", heads, p)
			}
			for i, e := range p.Edges {
				if e.ID != i {
					t.Fatalf("edge %d has ID %d", i, e.ID)
				}
			}
			// The straight-line program: one path through the copies to
			// each exit edge of each copy; the one reaching Error is the
			// path where the body ran exactly as often as the loop did.
			if got := countPaths(p, p.Entry, p.Error); got < tc.errorPaths {
				t.Errorf("%d paths to Error, want at least %d:\n%s", got, tc.errorPaths, p)
			}
		})
	}
}

// TestPeeledCopy: the copy is peeled and runs as the loop does; the
// original keeps its loop (the pipeline peels each request of a
// concurrent product, whose programs the other jobs share).
func TestPeeledCopy(t *testing.T) {
	p := NewProgram("loop")
	x := p.NewVar("x", Int, Local)
	i := p.NewVar("i", Int, Local)
	head, body, exit := p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, head, &Assign{Lhs: []*Var{x, i}, Rhs: []Expr{IntLit(0), IntLit(0)}})
	p.AddEdge(head, body, &Assume{Cond: Cmp(OpLt, i, IntLit(3))})
	p.AddEdge(head, exit, &Assume{Cond: Not(Cmp(OpLt, i, IntLit(3)))})
	p.AddEdge(body, head, &Assign{Lhs: []*Var{x, i}, Rhs: []Expr{Add(x, IntLit(2)), Add(i, IntLit(1))}})
	p.AddEdge(exit, p.Exit, &Assume{Cond: True})
	before := p.String()
	wantEnd, wantX := run(t, p)
	q := PeeledCopy(p, 8, 1000)
	if q == p {
		t.Fatal("no copy: the counted loop was not peeled")
	}
	if p.String() != before {
		t.Fatalf("the original changed:\n%s\nwas\n%s", p, before)
	}
	if heads, _ := loopHeads(q); len(heads) != 0 {
		t.Fatalf("loops left in the copy at %v:\n%s", heads, q)
	}
	if gotEnd, gotX := run(t, q); gotEnd != wantEnd || gotX != wantX {
		t.Fatalf("the copy ends at L%d with x = %s, the loop at L%d with x = %s", gotEnd, gotX, wantEnd, wantX)
	}
	if r := PeeledCopy(q, 8, 1000); r != q {
		t.Error("a program without a counted loop was copied")
	}
}

// countPaths counts the paths from l to target in an acyclic program.
func countPaths(p *Program, l, target Loc) int {
	if l == target {
		return 1
	}
	n := 0
	for _, e := range p.Out[l] {
		n += countPaths(p, e.To, target)
	}
	return n
}

// run executes a deterministic program (at most one edge of a location
// can be taken) and returns where it stops and x's value there.
func run(t *testing.T, p *Program) (Loc, string) {
	t.Helper()
	env := map[*Var]Value{}
	lookup := func(v *Var) (Value, bool) { x, ok := env[v]; return x, ok }
	l := p.Entry
	for steps := 0; steps < 1000; steps++ {
		var next *Edge
		for _, e := range p.Out[l] {
			if a, ok := e.Stmt.(*Assume); ok {
				v, err := Eval(a.Cond, lookup)
				if err != nil {
					t.Fatal(err)
				}
				if !v.B {
					continue
				}
			}
			if next != nil {
				t.Fatalf("two edges can be taken at L%d", l)
			}
			next = e
		}
		if next == nil {
			for v, x := range env {
				if v.Name == "x" {
					return l, x.String()
				}
			}
			return l, ""
		}
		if a, ok := next.Stmt.(*Assign); ok {
			vals := make([]Value, len(a.Rhs))
			for i, r := range a.Rhs {
				v, err := Eval(r, lookup)
				if err != nil {
					t.Fatal(err)
				}
				vals[i] = v
			}
			for i, v := range a.Lhs {
				env[v] = vals[i]
			}
		}
		l = next.To
	}
	t.Fatal("no end after 1000 steps")
	return 0, ""
}
