package boolprog

import (
	"fmt"
	"math/rand"
	"testing"
)

// diamonds builds a program with n sequential independent diamonds
//
//	A_i: if (b_i) { skip } else { skip }
//
// followed by a check of the flag c = b_n. If reachable, the true branch of
// the last diamond sets c; otherwise c stays 0 and Error is unreachable.
func diamonds(n int, reachable bool) *Program {
	preds := make([]string, n+1)
	for i := range n {
		preds[i] = fmt.Sprintf("x%d > 0", i)
	}
	preds[n] = "bad"
	p := NewProgram(fmt.Sprintf("diamonds%d", n), preds)
	c := Var(n)
	a := p.NewLoc()
	p.AddEdge(p.Entry, a, &Assign{Vars: []int{n}, Values: []Choose{ChooseOf(Const(false))}}, -1, "bad := false")
	for i := range n {
		t, next := p.NewLoc(), p.NewLoc()
		p.AddEdge(a, t, &Assume{Cond: Var(i)}, -1, fmt.Sprintf("if x%d > 0", i))
		p.AddEdge(a, next, &Assume{Cond: MkNot(Var(i))}, -1, "else")
		if reachable && i == n-1 {
			p.AddEdge(t, next, &Assign{Vars: []int{n}, Values: []Choose{ChooseOf(Const(true))}}, -1, "bad := true")
		} else {
			p.AddEdge(t, next, Skip{}, -1, "")
		}
		a = next
	}
	p.AddEdge(a, p.Error, &Assume{Cond: c}, -1, "assert !bad")
	p.AddEdge(a, p.Exit, &Assume{Cond: MkNot(c)}, -1, "")
	return p
}

// Concrete semantics, used as an oracle.

type cstate []bool

func (s cstate) key() string {
	b := make([]byte, len(s))
	for i, v := range s {
		if v {
			b[i] = 1
		}
	}
	return string(b)
}

func evalC(e Expr, s cstate, nilVal bool) bool {
	switch e := e.(type) {
	case nil:
		return nilVal
	case Const:
		return bool(e)
	case Var:
		return s[e]
	case *Not:
		return !evalC(e.X, s, true)
	case *And:
		for _, x := range e.Xs {
			if !evalC(x, s, true) {
				return false
			}
		}
		return true
	case *Or:
		for _, x := range e.Xs {
			if evalC(x, s, false) {
				return true
			}
		}
		return false
	}
	panic("bad expr")
}

// postC returns the concrete successors of s under st.
func postC(st Stmt, s cstate) []cstate {
	switch st := st.(type) {
	case nil, Skip, *Skip:
		return []cstate{s}
	case *Assume:
		if evalC(st.Cond, s, true) {
			return []cstate{s}
		}
		return nil
	case *Assign:
		outs := []cstate{append(cstate(nil), s...)}
		for i, ch := range st.Values {
			pv, nv := evalC(ch.Pos, s, false), evalC(ch.Neg, s, false)
			v := st.Vars[i]
			switch {
			case pv && nv:
				return nil
			case pv:
				for _, o := range outs {
					o[v] = true
				}
			case nv:
				for _, o := range outs {
					o[v] = false
				}
			default:
				var more []cstate
				for _, o := range outs {
					o2 := append(cstate(nil), o...)
					o[v], o2[v] = false, true
					more = append(more, o2)
				}
				outs = append(outs, more...)
			}
		}
		return outs
	}
	panic("bad stmt")
}

func allStates(n int) []cstate {
	var out []cstate
	for m := 0; m < 1<<n; m++ {
		s := make(cstate, n)
		for i := range n {
			s[i] = m&(1<<i) != 0
		}
		out = append(out, s)
	}
	return out
}

// concreteDist returns the length of the shortest concrete run from Entry
// (any initial values) to Error, or -1.
func concreteDist(p *Program) int {
	n := p.NumVars()
	out := p.outEdges()
	type cn struct {
		loc int
		s   cstate
	}
	seen := map[string]bool{}
	var frontier []cn
	for _, s := range allStates(n) {
		frontier = append(frontier, cn{p.Entry, s})
		seen[fmt.Sprint(p.Entry, s.key())] = true
	}
	for d := 0; len(frontier) > 0; d++ {
		var next []cn
		for _, c := range frontier {
			if c.loc == p.Error {
				return d
			}
			for _, e := range out[c.loc] {
				for _, s2 := range postC(e.Stmt, c.s) {
					k := fmt.Sprint(e.To, s2.key())
					if !seen[k] {
						seen[k] = true
						next = append(next, cn{e.To, s2})
					}
				}
			}
		}
		frontier = next
	}
	return -1
}

func matches(s cstate, a []Value) bool {
	for i, v := range a {
		if v != Top && (v == True) != s[i] {
			return false
		}
	}
	return true
}

// checkTrace verifies that tr is a well-formed path from Entry to Error and
// that some concrete run follows it through the abstract states.
func checkTrace(t *testing.T, p *Program, tr *Trace) {
	t.Helper()
	n := p.NumVars()
	if len(tr.States) != len(tr.Edges)+1 {
		t.Fatalf("trace has %d edges and %d states", len(tr.Edges), len(tr.States))
	}
	loc := p.Entry
	for i, e := range tr.Edges {
		if e.From != loc {
			t.Fatalf("edge %d starts at %d, want %d", i, e.From, loc)
		}
		loc = e.To
	}
	if loc != p.Error {
		t.Fatalf("trace ends at %d, not Error", loc)
	}
	for i, s := range tr.States {
		if len(s) != n {
			t.Fatalf("state %d has %d values, want %d", i, len(s), n)
		}
	}
	var cur []cstate
	for _, s := range allStates(n) {
		if matches(s, tr.States[0]) {
			cur = append(cur, s)
		}
	}
	for i, e := range tr.Edges {
		seen := map[string]bool{}
		var next []cstate
		for _, s := range cur {
			for _, s2 := range postC(e.Stmt, s) {
				if matches(s2, tr.States[i+1]) && !seen[s2.key()] {
					seen[s2.key()] = true
					next = append(next, s2)
				}
			}
		}
		if len(next) == 0 {
			t.Fatalf("no concrete run follows the trace to state %d (%s) over %s", i+1, StateString(tr.States[i+1]), StmtString(e.Stmt))
		}
		cur = next
	}
}

// randomProgram builds a small random boolean program.
func randomProgram(r *rand.Rand, nvars, nlocs, nedges int) *Program {
	preds := make([]string, nvars)
	for i := range preds {
		preds[i] = fmt.Sprintf("p%d", i)
	}
	p := NewProgram("rand", preds)
	for p.NumLocs < nlocs {
		p.NewLoc()
	}
	var rexpr func(depth int) Expr
	rexpr = func(depth int) Expr {
		k := r.Intn(10)
		switch {
		case depth == 0 || k < 4:
			return Var(r.Intn(nvars))
		case k == 4:
			return Const(r.Intn(2) == 0)
		case k == 5:
			return &Not{X: rexpr(depth - 1)}
		case k < 8:
			return &And{Xs: []Expr{rexpr(depth - 1), rexpr(depth - 1)}}
		default:
			return &Or{Xs: []Expr{rexpr(depth - 1), rexpr(depth - 1)}}
		}
	}
	for range nedges {
		from := r.Intn(nlocs)
		if from == p.Error {
			from = p.Entry
		}
		to := r.Intn(nlocs)
		var st Stmt
		switch r.Intn(4) {
		case 0:
			st = Skip{}
		case 1, 2:
			st = &Assume{Cond: rexpr(2)}
		default:
			a := &Assign{}
			used := map[int]bool{}
			for range 1 + r.Intn(2) {
				v := r.Intn(nvars)
				if used[v] {
					continue
				}
				used[v] = true
				a.Vars = append(a.Vars, v)
				var ch Choose
				switch r.Intn(5) {
				case 0:
					ch = Star()
				case 1:
					ch = ChooseOf(rexpr(2))
				case 2:
					ch = Choose{Pos: rexpr(1), Neg: Const(false)}
				default:
					ch = Choose{Pos: rexpr(2), Neg: rexpr(2)}
				}
				a.Values = append(a.Values, ch)
			}
			st = a
		}
		p.AddEdge(from, to, st, -1, "")
	}
	return p
}
