package ir

import "testing"

// TestPropagateCopies: the check at the end of each program reads the
// oldest name of its value where that is the same value on every path,
// and keeps its own name where it is not.
func TestPropagateCopies(t *testing.T) {
	type prog struct {
		p       *Program
		n, m, x *Var
		a, b, t *Var
		approx  *Var
	}
	mk := func() prog {
		p := NewProgram("f")
		g := prog{p: p}
		g.n = p.NewVar("n", Int, Input)
		g.m = p.NewVar("m", Int, Input)
		g.x = p.NewVar("x", Int, Local)
		g.a = p.NewVar("a", Int, Local)
		g.b = p.NewVar("b", Int, Local)
		g.t = p.NewVar("t", Int, Local)
		g.approx = p.NewVar("e", Int, Local)
		g.approx.Approx = "an element of a slice"
		return g
	}
	assign := func(lhs []*Var, rhs ...Expr) *Assign { return &Assign{Lhs: lhs, Rhs: rhs} }
	pos := func(v Expr) *Assume { return &Assume{Cond: Cmp(OpGt, v, IntLit(0))} }
	// chain builds Entry -> s1 -> ... -> sk -> Error.
	chain := func(p *Program, ss ...Stmt) *Edge {
		l := p.Entry
		var last *Edge
		for i, s := range ss {
			to := p.Error
			if i < len(ss)-1 {
				to = p.NewLoc()
			}
			last = p.AddEdge(l, to, s)
			l = to
		}
		return last
	}
	tests := []struct {
		name  string
		build func(g prog) *Edge // returns the edge into Error
		want  string
	}{
		{"copy", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.t}, g.n), pos(g.t))
		}, "n > 0"},
		{"chain of copies", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.a}, g.n), assign([]*Var{g.b}, g.a), pos(g.b))
		}, "n > 0"},
		{"source reassigned", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.t}, g.n), assign([]*Var{g.n}, Add(g.n, IntLit(1))), pos(g.t))
		}, "t > 0"},
		{"copy reassigned", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.t}, g.n), assign([]*Var{g.t}, g.m), pos(g.t))
		}, "m > 0"},
		{"havoc of the source", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.t}, g.n), &Havoc{Vars: []*Var{g.n}}, pos(g.t))
		}, "t > 0"},
		{"parallel swap", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.a, g.b}, g.b, g.a), pos(g.a))
		}, "a > 0"},
		{"approximated value", func(g prog) *Edge {
			return chain(g.p, assign([]*Var{g.t}, g.approx), pos(g.t))
		}, "t > 0"},
		{"different copies on two paths", func(g prog) *Edge {
			p := g.p
			l1, l2 := p.NewLoc(), p.NewLoc()
			p.AddEdge(p.Entry, l1, &Assume{Cond: Cmp(OpGt, g.x, IntLit(0))})
			p.AddEdge(p.Entry, l2, &Assume{Cond: Cmp(OpLe, g.x, IntLit(0))})
			join := p.NewLoc()
			p.AddEdge(l1, join, assign([]*Var{g.t}, g.n))
			p.AddEdge(l2, join, assign([]*Var{g.t}, g.m))
			return p.AddEdge(join, p.Error, pos(g.t))
		}, "t > 0"},
		{"the same copy on two paths", func(g prog) *Edge {
			p := g.p
			l1, l2 := p.NewLoc(), p.NewLoc()
			p.AddEdge(p.Entry, l1, &Assume{Cond: Cmp(OpGt, g.x, IntLit(0))})
			p.AddEdge(p.Entry, l2, &Assume{Cond: Cmp(OpLe, g.x, IntLit(0))})
			join := p.NewLoc()
			p.AddEdge(l1, join, assign([]*Var{g.t}, g.n))
			p.AddEdge(l2, join, assign([]*Var{g.t}, g.n))
			return p.AddEdge(join, p.Error, pos(g.t))
		}, "n > 0"},
		{"source changed in a loop", func(g prog) *Edge {
			p := g.p
			head := p.NewLoc()
			p.AddEdge(p.Entry, head, assign([]*Var{g.t}, g.n))
			body := p.NewLoc()
			p.AddEdge(head, body, &Assume{Cond: Cmp(OpGt, g.x, IntLit(0))})
			p.AddEdge(body, head, assign([]*Var{g.n}, Sub(g.n, IntLit(1))))
			return p.AddEdge(head, p.Error, pos(g.t))
		}, "t > 0"},
		{"copy kept through a loop", func(g prog) *Edge {
			p := g.p
			head := p.NewLoc()
			p.AddEdge(p.Entry, head, assign([]*Var{g.t}, g.n))
			body := p.NewLoc()
			p.AddEdge(head, body, &Assume{Cond: Cmp(OpGt, g.x, IntLit(0))})
			p.AddEdge(body, head, assign([]*Var{g.x}, Sub(g.x, IntLit(1))))
			return p.AddEdge(head, p.Error, pos(g.t))
		}, "n > 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mk()
			e := tt.build(g)
			if err := Sanity(g.p); err != nil {
				t.Fatal(err)
			}
			PropagateCopies(g.p)
			if err := Sanity(g.p); err != nil {
				t.Fatalf("after: %v", err)
			}
			if got := e.Stmt.(*Assume).Cond.String(); got != tt.want {
				t.Errorf("check reads %s, want %s\n%s", got, tt.want, g.p)
			}
		})
	}
}
