package boolprog

import (
	"fmt"
	"math/rand"
	"testing"
)

func assign(vars []int, vals ...Choose) *Assign { return &Assign{Vars: vars, Values: vals} }

// chain builds Entry -> L3 -> ... -> Error through the given statements.
func chain(nvars int, stmts ...Stmt) *Program {
	preds := make([]string, nvars)
	for i := range preds {
		preds[i] = fmt.Sprintf("p%d", i)
	}
	p := NewProgram("chain", preds)
	from := p.Entry
	for i, s := range stmts {
		to := p.Error
		if i < len(stmts)-1 {
			to = p.NewLoc()
		}
		p.AddEdge(from, to, s, i, "")
		from = to
	}
	return p
}

func TestReach(t *testing.T) {
	b0, b1, b2 := Var(0), Var(1), Var(2)
	tests := []struct {
		name string
		p    *Program
		want int // trace length, or -1 if Error is unreachable
	}{
		{"skip", chain(1, Skip{}), 1},
		{"assume b0", chain(1, &Assume{Cond: b0}), 1},
		{"b0 and not b0", chain(1, &Assume{Cond: b0}, &Assume{Cond: MkNot(b0)}), -1},
		{"b0 and not b0 in one", chain(1, &Assume{Cond: &And{Xs: []Expr{b0, &Not{X: b0}}}}), -1},
		{"b0 or not b0", chain(1, &Assume{Cond: &Or{Xs: []Expr{b0, &Not{X: b0}}}}), 1},
		{"top split keeps correlation", chain(2,
			&Assume{Cond: MkOr(b0, b1)}, &Assume{Cond: MkNot(b0)}, &Assume{Cond: MkNot(b1)}), -1},
		{"assign 1 then assume !b0", chain(1, assign([]int{0}, ChooseOf(Const(true))), &Assume{Cond: MkNot(b0)}), -1},
		{"assign 0 then assume !b0", chain(1, assign([]int{0}, ChooseOf(Const(false))), &Assume{Cond: MkNot(b0)}), 2},
		{"assign * then assume !b0", chain(1, assign([]int{0}, Choose{}), &Assume{Cond: MkNot(b0)}), 2},
		{"copy", chain(2, assign([]int{0}, ChooseOf(b1)), &Assume{Cond: MkAnd(b0, MkNot(b1))}), -1},
		{"copy consistent", chain(2, assign([]int{0}, ChooseOf(b1)), &Assume{Cond: MkAnd(b0, b1)}), 2},
		{"choose(b1, 0) true", chain(2, assign([]int{0}, Choose{Pos: b1, Neg: Const(false)}),
			&Assume{Cond: MkAnd(MkNot(b0), b1)}), -1},
		{"choose(b1, 0) star", chain(2, assign([]int{0}, Choose{Pos: b1, Neg: Const(false)}),
			&Assume{Cond: MkAnd(MkNot(b0), MkNot(b1))}), 2},
		{"inconsistent choose", chain(1, assign([]int{0}, Choose{Pos: Const(true), Neg: Const(true)})), -1},
		{"conditionally inconsistent choose", chain(2, assign([]int{0}, Choose{Pos: b1, Neg: b1}),
			&Assume{Cond: b1}), -1},
		{"conditionally inconsistent choose, other side", chain(2, assign([]int{0}, Choose{Pos: b1, Neg: b1}),
			&Assume{Cond: MkAnd(MkNot(b1), b0)}), 2},
		{"parallel swap", chain(2, &Assume{Cond: MkAnd(b0, MkNot(b1))},
			assign([]int{0, 1}, ChooseOf(b1), ChooseOf(b0)), &Assume{Cond: MkAnd(MkNot(b0), b1)}), 3},
		{"parallel swap reads pre-state", chain(2, &Assume{Cond: MkAnd(b0, MkNot(b1))},
			assign([]int{0, 1}, ChooseOf(b1), ChooseOf(b0)), &Assume{Cond: b0}), -1},
		{"correlated stars", chain(3,
			assign([]int{1, 2}, Choose{Pos: b0, Neg: Const(false)}, Choose{Pos: MkNot(b0), Neg: Const(false)}),
			&Assume{Cond: MkAnd(MkNot(b1), MkNot(b2))}), -1},
		{"dead then reassigned", chain(1, &Assume{Cond: b0}, assign([]int{0}, ChooseOf(Const(false))),
			&Assume{Cond: MkNot(b0)}), 3},
		{"entry is error", func() *Program {
			p := NewProgram("e", nil)
			p.Error = p.Entry
			return p
		}(), 0},
		{"no edge to error", func() *Program {
			p := NewProgram("x", []string{"p"})
			p.AddEdge(p.Entry, p.Exit, Skip{}, 0, "")
			return p
		}(), -1},
		{"nil statement and cond", chain(1, nil, &Assume{}), 2},
		{"unknown variable beyond preds", chain(0, &Assume{Cond: b2}), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, st := Reach(tc.p)
			if st.States < 1 {
				t.Errorf("States = %d", st.States)
			}
			if tc.want < 0 {
				if tr != nil {
					t.Fatalf("Error reachable via %d edges; want unreachable\n%s", len(tr.Edges), tc.p)
				}
				return
			}
			if tr == nil {
				t.Fatalf("Error unreachable; want a trace of %d edges\n%s", tc.want, tc.p)
			}
			if len(tr.Edges) != tc.want {
				t.Errorf("trace has %d edges, want %d", len(tr.Edges), tc.want)
			}
			checkTrace(t, tc.p, tr)
		})
	}
}

// loop: a 2-bit counter b1b0 starting at 0 counts up in a loop; Error when it
// reaches target.
func counterLoop(target int, initBad bool) *Program {
	b0, b1, bad := Var(0), Var(1), Var(2)
	p := NewProgram("counter", []string{"lo", "hi", "bad"})
	head, body := p.NewLoc(), p.NewLoc()
	badInit := Const(initBad)
	p.AddEdge(p.Entry, head, assign([]int{0, 1, 2}, ChooseOf(Const(false)), ChooseOf(Const(false)), ChooseOf(badInit)), 0, "init")
	// increment: b0' = !b0, b1' = b1 xor b0
	p.AddEdge(head, body, Skip{}, 1, "")
	p.AddEdge(body, head, assign([]int{0, 1},
		ChooseOf(MkNot(b0)),
		Choose{Pos: MkOr(MkAnd(b1, MkNot(b0)), MkAnd(MkNot(b1), b0)), Neg: MkOr(MkAnd(b1, b0), MkAnd(MkNot(b1), MkNot(b0)))}), 2, "inc")
	want := []Expr{MkNot(b0), b0}[target&1]
	wantHi := []Expr{MkNot(b1), b1}[target>>1]
	p.AddEdge(head, p.Error, &Assume{Cond: MkAnd(want, wantHi, bad)}, 3, "check")
	return p
}

func TestLoopsTerminate(t *testing.T) {
	for target := range 4 {
		tr, st := Reach(counterLoop(target, true))
		if tr == nil {
			t.Fatalf("target %d: unreachable", target)
		}
		// init, then target increments of two edges each, then the check.
		if want := 1 + 2*target + 1; len(tr.Edges) != want {
			t.Errorf("target %d: trace of %d edges, want %d", target, len(tr.Edges), want)
		}
		checkTrace(t, counterLoop(target, true), tr)
		if st.States > 20 {
			t.Errorf("target %d: %d states", target, st.States)
		}
		if tr, _ := Reach(counterLoop(target, false)); tr != nil {
			t.Errorf("target %d, bad=0: reachable", target)
		}
	}
	// A self-loop that havocs forever.
	p := NewProgram("spin", []string{"a"})
	l := p.NewLoc()
	p.AddEdge(p.Entry, l, Skip{}, 0, "")
	p.AddEdge(l, l, assign([]int{0}, Star()), 1, "")
	p.AddEdge(l, p.Error, &Assume{Cond: MkAnd(Var(0), MkNot(Var(0)))}, 2, "")
	if tr, _ := Reach(p); tr != nil {
		t.Errorf("spin: reachable")
	}
}

// TestShortest: a long path and a short path to Error; the short one needs
// a particular value of b0.
func TestShortest(t *testing.T) {
	p := NewProgram("two ways", []string{"a", "b"})
	b0 := Var(0)
	long := []int{p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()}
	short := p.NewLoc()
	p.AddEdge(p.Entry, long[0], &Assume{Cond: b0}, 0, "long")
	for i := 0; i+1 < len(long); i++ {
		p.AddEdge(long[i], long[i+1], Skip{}, 1, "")
	}
	p.AddEdge(long[len(long)-1], p.Error, Skip{}, 2, "")
	p.AddEdge(p.Entry, short, assign([]int{1}, ChooseOf(MkNot(b0))), 3, "short")
	p.AddEdge(short, p.Error, &Assume{Cond: Var(1)}, 4, "")
	tr, _ := Reach(p)
	if tr == nil || len(tr.Edges) != 2 {
		t.Fatalf("trace %v, want 2 edges", tr)
	}
	checkTrace(t, p, tr)
	if tr.States[1][1] != True {
		t.Errorf("state after b1 := !b0 is %s, want b1=1", StateString(tr.States[1]))
	}
	if tr.States[1][0] != Top {
		t.Errorf("b0 is dead after the assignment, but the state is %s", StateString(tr.States[1]))
	}
}

// TestRandomAgainstConcrete compares Reach with a brute-force concrete
// search on random small programs: same verdict, same shortest length, and
// a trace that a concrete run follows.
func TestRandomAgainstConcrete(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	reach := 0
	for i := range 3000 {
		nvars := 1 + r.Intn(4)
		nlocs := 3 + r.Intn(6)
		p := randomProgram(r, nvars, nlocs, nlocs+r.Intn(2*nlocs))
		want := concreteDist(p)
		tr, _ := Reach(p)
		got := -1
		if tr != nil {
			got = len(tr.Edges)
			reach++
		}
		if got != want {
			t.Fatalf("program %d: Reach gives %d, concrete search %d\n%s", i, got, want, p)
		}
		if tr != nil {
			checkTrace(t, p, tr)
		}
	}
	if reach < 300 || reach > 2700 {
		t.Errorf("only %d of 3000 random programs reach Error; generator is unbalanced", reach)
	}
}

func TestDiamondsLinear(t *testing.T) {
	for _, n := range []int{1, 5, 10, 20, 40} {
		for _, reachable := range []bool{false, true} {
			p := diamonds(n, reachable)
			tr, st := Reach(p)
			if (tr != nil) != reachable {
				t.Fatalf("n=%d: reachable = %v, want %v", n, tr != nil, reachable)
			}
			if st.States >= 50*n {
				t.Errorf("n=%d reachable=%v: %d states, want < %d", n, reachable, st.States, 50*n)
			}
			if tr != nil {
				// init, the else branch of the first n-1 diamonds, both
				// edges of the last one's then branch, the check.
				if want := 1 + (n - 1) + 2 + 1; len(tr.Edges) != want {
					t.Errorf("n=%d: trace of %d edges, want %d", n, len(tr.Edges), want)
				}
				if n <= 10 {
					checkTrace(t, p, tr)
				}
			}
		}
	}
	// Linear, not just bounded: doubling n at most doubles the count (+ slack).
	_, s20 := Reach(diamonds(20, false))
	_, s40 := Reach(diamonds(40, false))
	if s40.States > 2*s20.States+10 {
		t.Errorf("states grow superlinearly: n=20: %d, n=40: %d", s20.States, s40.States)
	}
}

func TestLiveVars(t *testing.T) {
	p := diamonds(3, true)
	live := LiveVars(p)
	// Entry: c is assigned before being read; b_i are read later.
	if got := fmt.Sprint(live[p.Entry]); got != "[0 1 2]" {
		t.Errorf("live at entry = %s, want [0 1 2]", got)
	}
	if len(live[p.Error]) != 0 || len(live[p.Exit]) != 0 {
		t.Errorf("live at Error/Exit: %v %v", live[p.Error], live[p.Exit])
	}
	// Location 3 is the first diamond's head: everything but nothing dead yet.
	if got := fmt.Sprint(live[3]); got != "[0 1 2 3]" {
		t.Errorf("live at L3 = %s", got)
	}
	// After the first diamond (L5), b0 is dead.
	if got := fmt.Sprint(live[5]); got != "[1 2 3]" {
		t.Errorf("live at L5 = %s", got)
	}
}

func BenchmarkReachDiamonds(b *testing.B) {
	for _, n := range []int{20, 100, 500} {
		for _, reachable := range []bool{false, true} {
			p := diamonds(n, reachable)
			b.Run(fmt.Sprintf("N=%d/reachable=%v", n, reachable), func(b *testing.B) {
				for b.Loop() {
					Reach(p)
				}
			})
		}
	}
}
