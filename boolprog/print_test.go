package boolprog

import "testing"

func withdraw() *Program {
	p := NewProgram("withdraw", []string{"r.balance >= 1000", "amt <= 10000", "balance - amt >= minbal"})
	b0, b1, b2 := Var(0), Var(1), Var(2)
	l3, l4, l5, l6 := p.NewLoc(), p.NewLoc(), p.NewLoc(), p.NewLoc()
	p.AddEdge(p.Entry, l3, Skip{}, 0, "x := 1 (atm.go:10)")
	p.AddEdge(l3, l4, &Assume{Cond: MkAnd(b1, MkNot(b2))}, 1, "if amt <= 10000 (atm.go:12)")
	p.AddEdge(l3, p.Exit, &Assume{Cond: MkNot(b1)}, 2, "else\n(atm.go:12)")
	p.AddEdge(l4, l5, &Assign{Vars: []int{0, 1}, Values: []Choose{{Pos: b2, Neg: MkNot(b2)}, Star()}}, 3,
		"UPDATE accounts SET balance = balance - ? (atm.go:13)")
	p.AddEdge(l5, p.Error, &Assume{Cond: MkNot(b0)}, 4, "assert balance >= minbal")
	p.AddEdge(l5, l6, &Assume{Cond: b0}, 5, "")
	p.AddEdge(l6, p.Exit, &Assign{Vars: []int{0, 1, 2}, Values: []Choose{
		{Pos: Const(true), Neg: Const(false)},
		{Pos: Const(false), Neg: Const(true)},
		{Pos: MkAnd(b0, b1), Neg: MkOr(MkNot(b0), b2, MkAnd(b1, b2))},
	}}, 6, "")
	return p
}

func TestString(t *testing.T) {
	const want = `decl b0, b1, b2; // b0 := {r.balance >= 1000}, b1 := {amt <= 10000}, b2 := {balance - amt >= minbal}
void main() begin // withdraw
L0: skip; goto L3; // x := 1 (atm.go:10)
L3: goto L3a, L3b;
L3a: assume(b1 & !b2); goto L4; // if amt <= 10000 (atm.go:12)
L3b: assume(!b1); goto EXIT; // else (atm.go:12)
L4: b0, b1 := b2, *; goto L5; // UPDATE accounts SET balance = balance - ? (atm.go:13)
L5: goto L5a, L5b;
L5a: assume(!b0); goto ERROR; // assert balance >= minbal
L5b: assume(b0); goto L6;
L6: b0, b1, b2 := 1, 0, choose(b0 & b1, !b0 | b2 | (b1 & b2)); goto EXIT;
EXIT: return;
ERROR: assert(0);
end
`
	p := withdraw()
	if got := p.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if again := p.String(); again != want {
		t.Error("String is not deterministic")
	}
}

func TestExprString(t *testing.T) {
	b0, b1, b2 := Var(0), Var(1), Var(2)
	tests := []struct {
		e    Expr
		want string
	}{
		{Const(true), "1"},
		{Const(false), "0"},
		{nil, "1"},
		{&And{}, "1"},
		{&Or{}, "0"},
		{b1, "b1"},
		{&Not{X: b1}, "!b1"},
		{&Not{X: &Not{X: b1}}, "!!b1"},
		{&Not{X: &And{Xs: []Expr{b0, b1}}}, "!(b0 & b1)"},
		{&Or{Xs: []Expr{&And{Xs: []Expr{b0, b1}}, &Not{X: b2}}}, "(b0 & b1) | !b2"},
		{&And{Xs: []Expr{&Or{Xs: []Expr{b0, b1}}, b2}}, "(b0 | b1) & b2"},
		{&And{Xs: []Expr{&Or{Xs: []Expr{b0}}, b2}}, "b0 & b2"},
	}
	for _, tc := range tests {
		if got := ExprString(tc.e); got != tc.want {
			t.Errorf("ExprString = %q, want %q", got, tc.want)
		}
	}
}

func TestChooseString(t *testing.T) {
	b0, b1 := Var(0), Var(1)
	tests := []struct {
		c    Choose
		want string
	}{
		{Choose{Const(true), Const(false)}, "1"},
		{Choose{Const(false), Const(true)}, "0"},
		{Choose{Const(false), Const(false)}, "*"},
		{Choose{}, "*"},
		{Star(), "*"},
		{ChooseOf(b0), "b0"},
		{Choose{&Not{X: b0}, b0}, "!b0"},
		{ChooseOf(MkAnd(b0, b1)), "b0 & b1"},
		{Choose{b0, Const(false)}, "choose(b0, 0)"},
		{Choose{Const(true), Const(true)}, "choose(1, 1)"},
		{Choose{b0, b1}, "choose(b0, b1)"},
	}
	for _, tc := range tests {
		if got := ChooseString(tc.c); got != tc.want {
			t.Errorf("ChooseString(%v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestStringMisc(t *testing.T) {
	// No predicates, a dead-end location, an edge with no label.
	p := NewProgram("", nil)
	l := p.NewLoc()
	p.AddEdge(p.Entry, l, &Assume{Cond: Const(true)}, 0, "")
	p.AddEdge(p.Entry, p.Exit, &Assign{}, 0, "")
	const want = `// no predicates
void main() begin
L0: goto L0a, L0b;
L0a: assume(1); goto L3;
L0b: skip; goto EXIT;
L3: assume(0);
EXIT: return;
ERROR: assert(0);
end
`
	if got := p.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for i, want := range map[int]string{0: "a", 25: "z", 26: "aa", 27: "ab", 52: "ba"} {
		if got := armName(i); got != want {
			t.Errorf("armName(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestMk(t *testing.T) {
	b0, b1, b2 := Var(0), Var(1), Var(2)
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"not const", MkNot(Const(true)), "0"},
		{"not not", MkNot(MkNot(b0)), "b0"},
		{"and empty", MkAnd(), "1"},
		{"and one", MkAnd(b0), "b0"},
		{"and drops 1", MkAnd(Const(true), b0, Const(true), b1), "b0 & b1"},
		{"and 0", MkAnd(b0, Const(false), b1), "0"},
		{"and flattens", MkAnd(b0, MkAnd(b1, b2)), "b0 & b1 & b2"},
		{"and dedups", MkAnd(b0, b1, b0), "b0 & b1"},
		{"and with empty or", MkAnd(b0, &Or{}), "0"},
		{"and nil", MkAnd(nil, b0), "b0"},
		{"or empty", MkOr(), "0"},
		{"or drops 0", MkOr(Const(false), b0), "b0"},
		{"or 1", MkOr(b0, Const(true)), "1"},
		{"or flattens", MkOr(MkOr(b0, b1), b2), "b0 | b1 | b2"},
		{"or with empty and", MkOr(b0, &And{}), "1"},
		{"dnf", MkOr(MkAnd(b0, MkNot(b1)), MkAnd(b1, b2)), "(b0 & !b1) | (b1 & b2)"},
	}
	for _, tc := range tests {
		if got := ExprString(tc.e); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if !ExprEqual(MkAnd(b0, b1), &And{Xs: []Expr{b0, b1}}) || ExprEqual(MkAnd(b0, b1), MkOr(b0, b1)) {
		t.Error("ExprEqual")
	}
	if got := Vars(MkOr(MkAnd(b2, MkNot(b0)), b2)); len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("Vars = %v", got)
	}
	s := []Value{True, Top, False}
	for _, tc := range []struct {
		e    Expr
		want Value
	}{
		{b0, True}, {b1, Top}, {MkAnd(b0, b2), False}, {MkOr(b1, b0), True},
		{MkAnd(b1, b0), Top}, {MkNot(b1), Top}, {nil, True}, {Var(7), Top},
	} {
		if got := Eval(tc.e, s); got != tc.want {
			t.Errorf("Eval(%s) = %s, want %s", ExprString(tc.e), got, tc.want)
		}
	}
	if got := StateString(s); got != "b0=1 b1=* b2=0" {
		t.Errorf("StateString = %q", got)
	}
}
