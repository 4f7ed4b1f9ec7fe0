package ir

import (
	"math/big"
	"strings"
	"testing"
)

func TestAtomsLiftIte(t *testing.T) {
	x := &Var{Name: "x", Type: Int}
	y := &Var{Name: "y", Type: Int}
	b := &Var{Name: "b", Type: Bool}
	tests := []struct {
		e    Expr
		want []string
	}{
		{Cmp(OpGe, x, IntLit(0)), []string{"x >= 0"}},
		{And(Not(Cmp(OpLt, x, y)), b), []string{"x >= y", "b"}},
		// The UPDATE rule's ite is lifted out: its condition and both branches.
		{Cmp(OpGe, IteOf(Eq(x, y), Sub(x, IntLit(5)), x), IntLit(0)), []string{"x == y", "(x - 5) >= 0", "x >= 0"}},
		{Or(True, b), nil},
	}
	for _, tt := range tests {
		var got []string
		for _, a := range Atoms(tt.e) {
			got = append(got, a.String())
		}
		if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
			t.Errorf("Atoms(%s) = %v, want %v", tt.e, got, tt.want)
		}
	}
}

func TestSubstituteIsSimultaneous(t *testing.T) {
	x := &Var{Name: "x", Type: Int}
	y := &Var{Name: "y", Type: Int}
	// x, y := y, x applied to x - y gives y - x.
	got := Substitute(Sub(x, y), map[*Var]Expr{x: y, y: x})
	if got.String() != "y - x" {
		t.Errorf("got %s, want y - x", got)
	}
}

func TestEvalGoArithmetic(t *testing.T) {
	tests := []struct {
		e    Expr
		want string
	}{
		{Arith(OpDiv, IntLit(-7), IntLit(2)), "-3"},
		{Arith(OpMod, IntLit(-7), IntLit(2)), "-1"},
		{Arith(OpDiv, &Var{Name: "a", Type: Int}, IntLit(2)), "-3"},
		{Cmp(OpLe, Add(&Var{Name: "a", Type: Int}, IntLit(7)), IntLit(0)), "true"},
		{IteOf(&Var{Name: "p", Type: Bool}, IntLit(1), IntLit(2)), "2"},
	}
	env := func(v *Var) (Value, bool) {
		switch v.Name {
		case "a":
			return NumValue(Int, big.NewRat(-7, 1)), true
		case "p":
			return BoolValue(false), true
		}
		return Value{}, false
	}
	for _, tt := range tests {
		v, err := Eval(tt.e, env)
		if err != nil || v.String() != tt.want {
			t.Errorf("Eval(%s) = %v, %v; want %s", tt.e, v, err, tt.want)
		}
	}
	if _, err := Eval(&Var{Name: "missing", Type: Int}, env); err == nil {
		t.Error("Eval of a variable without a value did not fail")
	}
}

func TestSanity(t *testing.T) {
	p := NewProgram("f")
	x := p.NewVar("x", Int, Input)
	b := p.NewVar("b", Bool, Local)
	l := p.NewLoc()
	p.AddEdge(p.Entry, l, &Assign{Lhs: []*Var{b}, Rhs: []Expr{Cmp(OpGe, x, IntLit(0))}})
	p.AddEdge(l, p.Exit, &Assume{Cond: b})
	if err := Sanity(p); err != nil {
		t.Fatalf("valid program rejected: %v", err)
	}
	bad := []Stmt{
		&Assign{Lhs: []*Var{x}, Rhs: []Expr{b}},                      // Int := Bool
		&Assume{Cond: x},                                             // assume of an Int
		&Assign{Lhs: []*Var{{Name: "y", Type: Int}}, Rhs: []Expr{x}}, // not the program's variable
	}
	for _, s := range bad {
		q := NewProgram("g")
		q.Vars = p.Vars
		q.AddEdge(q.Entry, q.Exit, s)
		if err := Sanity(q); err == nil {
			t.Errorf("Sanity accepted %s", s)
		}
	}
}

func TestNewVarNamesAreUnique(t *testing.T) {
	p := NewProgram("f")
	a, b, c := p.NewVar("err", Bool, Local), p.NewVar("err", Bool, Local), p.NewVar("err", Bool, Local)
	if a.Name == b.Name || b.Name == c.Name || a.Name == c.Name {
		t.Errorf("names %s %s %s are not unique", a.Name, b.Name, c.Name)
	}
}

// TestRealValueString: a fraction prints exactly when its decimal ends,
// else as the shortest decimal of the float64 nearest to it (not rounded
// to a few digits, which moves it far enough to change a comparison).
func TestRealValueString(t *testing.T) {
	for _, c := range []struct {
		num, den int64
		want     string
	}{
		{19, 2, "9.5"},
		{1, 8, "0.125"},
		{-3, 20, "-0.15"},
		{20, 3, "6.666666666666667"},
		{19, 3, "6.333333333333333"},
		{1, 7, "0.14285714285714285"},
	} {
		if got := NumValue(Real, big.NewRat(c.num, c.den)).String(); got != c.want {
			t.Errorf("%d/%d prints %s, want %s", c.num, c.den, got, c.want)
		}
	}
}
