package smt

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// Raw constructors: they build nodes without ir's constant folding, so the
// tests exercise the translation, not the simplifier.
func bin(op ir.Op, x, y ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: x, Y: y} }
func un(op ir.Op, x ir.Expr) ir.Expr     { return &ir.Unary{Op: op, X: x} }
func ite(c, x, y ir.Expr) ir.Expr        { return &ir.Ite{Cond: c, Then: x, Else: y} }
func n(v int64) ir.Expr                  { return ir.IntLit(v) }
func q(a, b int64) ir.Expr               { return ir.RealLit(big.NewRat(a, b)) }
func and(xs ...ir.Expr) ir.Expr {
	out := xs[0]
	for _, x := range xs[1:] {
		out = bin(ir.OpAnd, out, x)
	}
	return out
}

var (
	x  = &ir.Var{Name: "x", Type: ir.Int}
	y  = &ir.Var{Name: "y", Type: ir.Int}
	z  = &ir.Var{Name: "z", Type: ir.Int}
	qv = &ir.Var{Name: "q", Type: ir.Int}
	rv = &ir.Var{Name: "r", Type: ir.Int}
	a  = &ir.Var{Name: "a", Type: ir.Real}
	b  = &ir.Var{Name: "b", Type: ir.Real}
	p  = &ir.Var{Name: "p", Type: ir.Bool}
	pp = &ir.Var{Name: "pp", Type: ir.Bool}
)

func newSolver(t testing.TB, timeoutMS int) *Solver {
	t.Helper()
	s, err := NewSolver(timeoutMS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// checkModel asserts that m satisfies f according to ir.Eval.
func checkModel(t *testing.T, f ir.Expr, m *Model) {
	t.Helper()
	v, err := ir.Eval(f, m.Value)
	if err != nil {
		t.Fatalf("eval %s: %v", f, err)
	}
	if v.Sort != ir.Bool || !v.B {
		t.Fatalf("model does not satisfy %s", f)
	}
}

var satCases = []struct {
	name string
	f    ir.Expr
	want Result
}{
	{"int gap", and(bin(ir.OpGt, x, n(0)), bin(ir.OpLt, x, n(1))), Unsat},
	{"int range", and(bin(ir.OpGt, x, n(0)), bin(ir.OpLt, x, n(2))), Sat},
	{"parity", bin(ir.OpEq, bin(ir.OpMul, n(2), x), n(3)), Unsat},
	{"system", and(bin(ir.OpEq, bin(ir.OpAdd, x, y), n(10)), bin(ir.OpEq, bin(ir.OpSub, x, y), n(2))), Sat},
	{"neg", bin(ir.OpEq, un(ir.OpNeg, x), n(5)), Sat},
	{"ne", and(bin(ir.OpNe, x, y), bin(ir.OpLe, x, y), bin(ir.OpGe, x, y)), Unsat},
	{"implies", and(bin(ir.OpImplies, bin(ir.OpGt, x, n(5)), bin(ir.OpLt, y, n(0))), bin(ir.OpGt, x, n(6)), bin(ir.OpGe, y, n(0))), Unsat},
	{"or", and(bin(ir.OpOr, bin(ir.OpLt, x, n(0)), bin(ir.OpGt, x, n(10))), bin(ir.OpGe, x, n(0))), Sat},
	{"bool contradiction", and(p, un(ir.OpNot, p)), Unsat},
	{"bool link", and(bin(ir.OpEq, p, bin(ir.OpGt, x, n(0))), p, bin(ir.OpLt, x, n(0))), Unsat},
	{"bool ne", and(bin(ir.OpNe, p, pp), p, pp), Unsat},
	{"bool ne sat", and(bin(ir.OpNe, p, pp), p), Sat},
	{"bool const", ir.BoolConst(false), Unsat},
	{"ite abs", bin(ir.OpLt, ite(bin(ir.OpGt, x, n(0)), x, un(ir.OpNeg, x)), n(0)), Unsat},
	{"ite bool", and(ite(p, bin(ir.OpGt, x, n(0)), bin(ir.OpLt, x, n(0))), bin(ir.OpEq, x, n(0))), Unsat},
	{"real dense", and(bin(ir.OpGt, a, q(0, 1)), bin(ir.OpLt, a, q(1, 1000))), Sat},
	{"real half", bin(ir.OpEq, bin(ir.OpMul, q(2, 1), a), q(3, 1)), Sat},
	{"real div", and(bin(ir.OpEq, bin(ir.OpDiv, a, q(3, 1)), q(-1, 2)), bin(ir.OpNe, a, q(-3, 2))), Unsat},
	{"to real", and(bin(ir.OpEq, &ir.ToReal{X: x}, a), bin(ir.OpEq, a, q(1, 2))), Unsat},
	{"mixed int real tolerated", and(bin(ir.OpEq, bin(ir.OpMul, x, q(2, 1)), q(3, 1))), Unsat},
	{"mixed ite", bin(ir.OpEq, ite(p, x, a), q(1, 3)), Sat},
	{"negative literal", bin(ir.OpEq, x, n(-12345678901234)), Sat},
	{"big literal", bin(ir.OpEq, x, ir.BigInt(new(big.Int).Lsh(big.NewInt(1), 100))), Sat},
	{"div by var", and(bin(ir.OpEq, bin(ir.OpDiv, x, y), n(-3)), bin(ir.OpEq, bin(ir.OpMod, x, y), n(1)), bin(ir.OpEq, y, n(-2))), Sat},
	{"nonlinear", and(bin(ir.OpEq, bin(ir.OpMul, x, y), n(12)), bin(ir.OpGt, x, n(4)), bin(ir.OpGt, y, n(2))), Unsat},
}

func TestSat(t *testing.T) {
	s := newSolver(t, 0)
	for _, c := range satCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.Sat(c.f)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("Sat(%s) = %s, want %s", c.f, got, c.want)
			}
		})
	}
}

// The same formulas through the incremental path, with models checked by
// ir.Eval.
func TestCheckAndModel(t *testing.T) {
	s := newSolver(t, 0)
	for _, c := range satCases {
		t.Run(c.name, func(t *testing.T) {
			s.Push()
			defer s.Pop()
			if err := s.Assert(c.f); err != nil {
				t.Fatal(err)
			}
			got, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("Check(%s) = %s, want %s", c.f, got, c.want)
			}
			m, err := s.Model()
			if got != Sat {
				if !errors.Is(err, ErrNoModel) {
					t.Fatalf("Model after %s: err = %v, want ErrNoModel", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkModel(t, c.f, m)
		})
	}
	if s.Depth() != 0 {
		t.Fatalf("depth %d after balanced push/pop", s.Depth())
	}
}

func TestValid(t *testing.T) {
	eqv := func(v *ir.Var, k int64) ir.Expr { return bin(ir.OpEq, v, n(k)) }
	imp := func(c, f ir.Expr) ir.Expr { return bin(ir.OpImplies, c, f) }
	div := func(u, v ir.Expr) ir.Expr { return bin(ir.OpDiv, u, v) }
	mod := func(u, v ir.Expr) ir.Expr { return bin(ir.OpMod, u, v) }
	cases := []struct {
		name string
		f    ir.Expr
		want bool
	}{
		{"-7/2 == -3", bin(ir.OpEq, div(n(-7), n(2)), n(-3)), true},
		{"-7%2 == -1", bin(ir.OpEq, mod(n(-7), n(2)), n(-1)), true},
		{"7/-2 == -3", bin(ir.OpEq, div(n(7), n(-2)), n(-3)), true},
		{"7%-2 == 1", bin(ir.OpEq, mod(n(7), n(-2)), n(1)), true},
		{"-7/-2 == 3", bin(ir.OpEq, div(n(-7), n(-2)), n(3)), true},
		{"-7%-2 == -1", bin(ir.OpEq, mod(n(-7), n(-2)), n(-1)), true},
		{"-7/2 != -4 (not floor)", bin(ir.OpEq, div(n(-7), n(2)), n(-4)), false},
		{"x=-7 => x/2=-3", imp(eqv(x, -7), bin(ir.OpEq, div(x, n(2)), n(-3))), true},
		{"x=-7 => x%2=-1", imp(eqv(x, -7), bin(ir.OpEq, mod(x, n(2)), n(-1))), true},
		{"vars -7/2", imp(and(eqv(x, -7), eqv(y, 2)), and(bin(ir.OpEq, div(x, y), n(-3)), bin(ir.OpEq, mod(x, y), n(-1)))), true},
		{"vars 7/-2", imp(and(eqv(x, 7), eqv(y, -2)), and(bin(ir.OpEq, div(x, y), n(-3)), bin(ir.OpEq, mod(x, y), n(1)))), true},
		{"division identity", imp(bin(ir.OpNe, y, n(0)), bin(ir.OpEq, x, bin(ir.OpAdd, bin(ir.OpMul, y, div(x, y)), mod(x, y)))), true},
		{"rem sign follows dividend", and(
			imp(bin(ir.OpGe, x, n(0)), bin(ir.OpGe, mod(x, n(3)), n(0))),
			imp(bin(ir.OpLt, x, n(0)), bin(ir.OpLe, mod(x, n(3)), n(0))),
			bin(ir.OpLt, mod(x, n(-3)), n(3)), bin(ir.OpGt, mod(x, n(-3)), n(-3))), true},
		{"rem by positive may be negative", bin(ir.OpGe, mod(x, n(3)), n(0)), false},
		{"quotient truncates", imp(bin(ir.OpLt, x, n(0)), bin(ir.OpGe, bin(ir.OpMul, div(x, n(4)), n(4)), x)), true},
		{"linear", imp(and(bin(ir.OpGe, x, n(0)), bin(ir.OpGe, y, n(0))), bin(ir.OpGe, bin(ir.OpAdd, x, y), n(0))), true},
		{"not valid", bin(ir.OpGt, x, n(0)), false},
		{"excluded middle", bin(ir.OpOr, p, un(ir.OpNot, p)), true},
		{"real", imp(bin(ir.OpGt, a, b), bin(ir.OpGt, bin(ir.OpDiv, bin(ir.OpAdd, a, b), q(2, 1)), b)), true},
		{"real not int", imp(bin(ir.OpGt, a, q(0, 1)), bin(ir.OpGe, a, q(1, 1))), false},
		{"int is discrete", imp(bin(ir.OpGt, x, n(0)), bin(ir.OpGe, x, n(1))), true},
		{"ite", bin(ir.OpGe, ite(bin(ir.OpGe, x, n(0)), x, un(ir.OpNeg, x)), n(0)), true},
		{"true", ir.True, true},
		{"false", ir.False, false},
	}
	s := newSolver(t, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.Valid(c.f)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("Valid(%s) = %v, want %v", c.f, got, c.want)
			}
		})
	}
}

// Z3's models of Go division and remainder agree with Go and with ir.Eval.
func TestGoDivisionAgreesWithEval(t *testing.T) {
	s := newSolver(t, 0)
	quo, rem := bin(ir.OpDiv, x, y), bin(ir.OpMod, x, y)
	for i := int64(-9); i <= 9; i++ {
		for j := int64(-4); j <= 4; j++ {
			if j == 0 {
				continue
			}
			f := and(bin(ir.OpEq, x, n(i)), bin(ir.OpEq, y, n(j)), bin(ir.OpEq, qv, quo), bin(ir.OpEq, rv, rem))
			s.Push()
			if err := s.Assert(f); err != nil {
				t.Fatal(err)
			}
			res, err := s.Check()
			if err != nil || res != Sat {
				t.Fatalf("%d, %d: %s %v", i, j, res, err)
			}
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			s.Pop()
			gq, _ := m.Value(qv)
			gr, _ := m.Value(rv)
			if gq.R.Cmp(big.NewRat(i/j, 1)) != 0 || gr.R.Cmp(big.NewRat(i%j, 1)) != 0 {
				t.Errorf("%d / %d: Z3 says q=%s r=%s, Go says %d, %d", i, j, gq, gr, i/j, i%j)
			}
			eq, err := ir.Eval(quo, m.Value)
			if err != nil {
				t.Fatal(err)
			}
			er, err := ir.Eval(rem, m.Value)
			if err != nil {
				t.Fatal(err)
			}
			if eq.R.Cmp(gq.R) != 0 || er.R.Cmp(gr.R) != 0 {
				t.Errorf("%d / %d: ir.Eval says %s, %s; Z3 %s, %s", i, j, eq, er, gq, gr)
			}
			checkModel(t, f, m)
		}
	}
}

// Division and remainder by zero are unconstrained, as in Z3.
func TestDivisionByZeroUnconstrained(t *testing.T) {
	s := newSolver(t, 0)
	for _, op := range []ir.Op{ir.OpDiv, ir.OpMod} {
		for _, k := range []int64{-5, 0, 7} {
			f := and(bin(ir.OpEq, y, n(0)), bin(ir.OpEq, x, n(3)), bin(ir.OpEq, bin(op, x, y), n(k)))
			if res, err := s.Sat(f); err != nil || res != Sat {
				t.Errorf("3 %s 0 == %d: %s %v, want sat", op, k, res, err)
			}
		}
	}
}

func TestPushPop(t *testing.T) {
	s := newSolver(t, 0)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	expect := func(want Result) {
		t.Helper()
		got, err := s.Check()
		must(err)
		if got != want {
			t.Fatalf("Check = %s, want %s (depth %d)", got, want, s.Depth())
		}
	}
	must(s.Assert(bin(ir.OpGt, x, n(0))))
	expect(Sat)
	s.Push()
	must(s.Assert(bin(ir.OpLt, x, n(10))))
	expect(Sat)
	s.Push()
	must(s.Assert(bin(ir.OpLt, x, n(0))))
	expect(Unsat)
	// Standalone queries ignore the caller's assertions, even with scopes open.
	if res, err := s.Sat(bin(ir.OpLt, x, n(0))); err != nil || res != Sat {
		t.Fatalf("Sat(x < 0) with caller scopes open = %s %v, want sat", res, err)
	}
	expect(Unsat)
	s.Pop()
	expect(Sat)
	must(s.Assert(bin(ir.OpEq, x, n(7))))
	expect(Sat)
	m, err := s.Model()
	must(err)
	s.Pop()
	if s.Depth() != 0 {
		t.Fatalf("depth %d", s.Depth())
	}
	// The model outlives the scope it came from.
	if v, ok := m.Value(x); !ok || v.R.Cmp(big.NewRat(7, 1)) != 0 {
		t.Fatalf("x = %v after pop, want 7", v)
	}
	if _, err := s.Model(); !errors.Is(err, ErrNoModel) {
		t.Fatalf("Model after Pop: %v, want ErrNoModel", err)
	}
	expect(Sat)
	// An unbalanced Pop poisons the solver.
	s.Pop()
	if _, err := s.Check(); !errors.Is(err, ErrScope) {
		t.Fatalf("Check after unbalanced Pop: %v, want ErrScope", err)
	}
}

// Variables of popped scopes leave the model; unconstrained ones get zero.
func TestModelVariables(t *testing.T) {
	s := newSolver(t, 0)
	if err := s.Assert(bin(ir.OpEq, x, n(3))); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(and(bin(ir.OpEq, y, n(4)), p)); err != nil {
		t.Fatal(err)
	}
	s.Pop()
	s.Push()
	if err := s.Assert(bin(ir.OpGt, bin(ir.OpAdd, a, a), q(1, 1))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatal(res, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 2 {
		t.Fatalf("model has %d values, want 2 (x, a)", m.Len())
	}
	if v, _ := m.Value(x); v.Sort != ir.Int || v.R.Cmp(big.NewRat(3, 1)) != 0 {
		t.Fatalf("x = %v", v)
	}
	if v, _ := m.Value(a); v.Sort != ir.Real || v.R.Cmp(big.NewRat(1, 2)) <= 0 {
		t.Fatalf("a = %v", v)
	}
	if v, ok := m.Value(y); !ok || v.Sort != ir.Int || v.R.Sign() != 0 {
		t.Fatalf("y (popped) = %v %v, want 0", v, ok)
	}
	if v, ok := m.Value(p); !ok || v.Sort != ir.Bool || v.B {
		t.Fatalf("p (popped) = %v %v, want false", v, ok)
	}
	// Mutating a returned value does not change the model.
	v, _ := m.Value(x)
	v.R.SetInt64(99)
	if w, _ := m.Value(x); w.R.Cmp(big.NewRat(3, 1)) != 0 {
		t.Fatalf("model changed through a returned value: %v", w)
	}
	var nilModel *Model
	if _, ok := nilModel.Value(x); ok {
		t.Fatal("nil model gave a value")
	}
	// ModelOf extracts only the variables asked for (y was popped: not
	// extracted either), with the values the full model has.
	only, err := s.ModelOf(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if only.Len() != 1 {
		t.Fatalf("ModelOf(x, y) has %d values, want 1 (x)", only.Len())
	}
	if v, _ := only.Value(x); v.R.Cmp(big.NewRat(3, 1)) != 0 {
		t.Fatalf("ModelOf: x = %v, want 3", v)
	}
	if err := s.Assert(bin(ir.OpEq, x, n(3))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ModelOf(x); !errors.Is(err, ErrNoModel) {
		t.Fatalf("ModelOf after an Assert: %v, want ErrNoModel", err)
	}
}

func TestAlgebraicModel(t *testing.T) {
	s := newSolver(t, 0)
	if err := s.Assert(and(bin(ir.OpEq, bin(ir.OpMul, a, a), q(2, 1)), bin(ir.OpGt, a, q(0, 1)))); err != nil {
		t.Fatal(err)
	}
	res, err := s.Check()
	if err != nil || res != Sat {
		t.Fatal(res, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	v, _ := m.Value(a)
	if !m.Approximate() {
		t.Fatalf("sqrt 2 = %s not flagged approximate", v.R.RatString())
	}
	if v.R.Cmp(big.NewRat(1414213, 1000000)) < 0 || v.R.Cmp(big.NewRat(1414214, 1000000)) > 0 {
		t.Fatalf("sqrt 2 ≈ %s", v.R.FloatString(10))
	}
}

func TestCache(t *testing.T) {
	s := newSolver(t, 0)
	f := func() ir.Expr { return and(bin(ir.OpGt, x, n(0)), bin(ir.OpLt, x, n(5))) }
	for i := 0; i < 3; i++ {
		if res, err := s.Sat(f()); err != nil || res != Sat {
			t.Fatal(res, err)
		}
	}
	if st := s.Stats(); st.Queries != 1 || st.CacheHits != 2 {
		t.Fatalf("stats %+v, want 1 query and 2 hits", st)
	}
	// Valid(e) shares the entry of Sat(!e).
	g := bin(ir.OpGe, x, n(0))
	if ok, err := s.Valid(g); err != nil || ok {
		t.Fatal(ok, err)
	}
	if res, err := s.Sat(un(ir.OpNot, bin(ir.OpGe, x, n(0)))); err != nil || res != Sat {
		t.Fatal(res, err)
	}
	if st := s.Stats(); st.Queries != 2 || st.CacheHits != 3 {
		t.Fatalf("stats %+v, want 2 queries and 3 hits", st)
	}
	// Same text, different sorts: different queries.
	xr := &ir.Var{Name: "x", Type: ir.Real}
	r1, _ := s.Sat(bin(ir.OpEq, bin(ir.OpMul, x, n(2)), n(1)))
	r2, _ := s.Sat(bin(ir.OpEq, bin(ir.OpMul, xr, q(2, 1)), q(1, 1)))
	if r1 != Unsat || r2 != Sat {
		t.Fatalf("int 2x=1: %s, real 2x=1: %s", r1, r2)
	}
	if st := s.Stats(); st.Queries != 4 || st.Seconds <= 0 {
		t.Fatalf("stats %+v, want 4 queries and some time", st)
	}
}

func TestQueryKey(t *testing.T) {
	key := func(e ir.Expr) string {
		k, err := queryKey(e)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	xr := &ir.Var{Name: "x", Type: ir.Real}
	odd := &ir.Var{Name: "x\n0", Type: ir.Int}
	distinct := []ir.Expr{
		x, xr, odd, n(1), q(1, 1), ir.True, ir.False,
		bin(ir.OpAdd, x, y), bin(ir.OpAdd, y, x), bin(ir.OpSub, x, y),
		bin(ir.OpAdd, x, bin(ir.OpAdd, y, z)), bin(ir.OpAdd, bin(ir.OpAdd, x, y), z),
		un(ir.OpNeg, x), &ir.ToReal{X: x}, ite(p, x, y), ite(p, y, x),
		bin(ir.OpEq, x, odd), bin(ir.OpEq, x, x),
	}
	seen := map[string]int{}
	for i, e := range distinct {
		k := key(e)
		if j, ok := seen[k]; ok {
			t.Errorf("%s and %s share key %q", distinct[j], e, k)
		}
		seen[k] = i
	}
	// Structural equality, not identity.
	x2 := &ir.Var{Name: "x", Type: ir.Int}
	if key(bin(ir.OpAdd, x, n(1))) != key(bin(ir.OpAdd, x2, n(1))) {
		t.Error("structurally equal expressions have different keys")
	}
	// Shared subterms: 60 doublings make a tree of 2^60 leaves but a DAG of
	// 61 nodes; key and translation stay small.
	var e ir.Expr = x
	for i := 0; i < 60; i++ {
		e = bin(ir.OpAdd, e, e)
	}
	e = bin(ir.OpEq, e, n(0))
	if k := key(e); len(k) > 2000 {
		t.Fatalf("key of a 62-node DAG has %d bytes", len(k))
	}
	s := newSolver(t, 0)
	if res, err := s.Sat(e); err != nil || res != Sat {
		t.Fatal(res, err)
	}
}

func TestMalformed(t *testing.T) {
	s := newSolver(t, 0)
	cases := []struct {
		name string
		f    ir.Expr
	}{
		{"nil", nil},
		{"nil var", (*ir.Var)(nil)},
		{"nil operand", bin(ir.OpAnd, p, nil)},
		{"nil int", &ir.IntConst{}},
		{"and of ints", bin(ir.OpAnd, x, y)},
		{"int formula", bin(ir.OpAdd, x, y)},
		{"not int", un(ir.OpNot, x)},
		{"neg bool", un(ir.OpNeg, p)},
		{"bool == int", bin(ir.OpEq, p, x)},
		{"bool < bool", bin(ir.OpLt, p, pp)},
		{"real mod", bin(ir.OpEq, bin(ir.OpMod, a, b), q(0, 1))},
		{"ite cond", bin(ir.OpEq, ite(x, y, z), n(0))},
		{"ite branches", ite(p, pp, x)},
		{"real of bool", bin(ir.OpEq, &ir.ToReal{X: p}, a)},
		{"bad sort", bin(ir.OpEq, &ir.Var{Name: "w", Type: ir.Sort(9)}, n(0))},
		{"bad op", bin(ir.OpNot, x, y)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := s.Sat(c.f); !errors.Is(err, ErrSort) {
				t.Errorf("Sat: %v, want ErrSort", err)
			}
			if _, err := s.Valid(c.f); !errors.Is(err, ErrSort) {
				t.Errorf("Valid: %v, want ErrSort", err)
			}
			if err := s.Assert(c.f); !errors.Is(err, ErrSort) {
				t.Errorf("Assert: %v, want ErrSort", err)
			}
		})
	}
	// Nothing was asserted; the solver still works.
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatal(res, err)
	}
	if st := s.Stats(); st.Queries != 1 {
		t.Fatalf("%d queries, want 1", st.Queries)
	}
}

// A Z3 error raised inside go-z3 becomes an error wrapping ErrPanic, and
// the solver keeps working.
func TestRecoveredZ3Panic(t *testing.T) {
	s := newSolver(t, 0)
	err := guard("test", func() error {
		i := s.ctx.IntConst("i")
		bad := z3.Int(s.ctx.BoolConst("c")) // a Bool posing as an Int
		s.main.Assert(i.Eq(bad))            // Z3: sort mismatch
		return nil
	})
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("got %v, want ErrPanic", err)
	}
	if !strings.Contains(err.Error(), "smt: test") {
		t.Fatalf("error lacks context: %v", err)
	}
	if res, err := s.Sat(bin(ir.OpEq, x, n(1))); err != nil || res != Sat {
		t.Fatalf("after recovered panic: %s %v", res, err)
	}
	if err := s.Assert(bin(ir.OpEq, x, n(1))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("after recovered panic: %s %v", res, err)
	}
	// Any panic, not only Z3's.
	err = guard("test", func() error {
		var m map[string]int
		//lint:ignore SA5000 a deliberate nil-map write: guard must recover any panic
		m["boom"] = 1
		return nil
	})
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("got %v, want ErrPanic", err)
	}
}

func TestTimeout(t *testing.T) {
	s := newSolver(t, 1)
	f := hard()
	start := time.Now()
	res, err := s.Sat(f)
	if err != nil {
		t.Fatal(err)
	}
	if res == Unsat {
		t.Fatal("factoring a semiprime: unsat")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("1 ms timeout took %v", d)
	}
	if res == Unknown && s.ReasonUnknown() == "" {
		t.Fatal("Unknown without a reason")
	}
	t.Logf("result %s (%q) in %v", res, s.ReasonUnknown(), time.Since(start))
	if ok, err := s.Valid(un(ir.OpNot, f)); err != nil || ok {
		t.Fatalf("Valid(!f) = %v %v: Unknown must count as not valid", ok, err)
	}
}

func TestClose(t *testing.T) {
	s, err := NewSolver(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sat(p); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close()
	s.Push()
	s.Pop()
	if _, err := s.Check(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Check: %v", err)
	}
	if _, err := s.Sat(p); !errors.Is(err, ErrClosed) {
		t.Fatalf("Sat: %v", err)
	}
	if err := s.Assert(p); !errors.Is(err, ErrClosed) {
		t.Fatalf("Assert: %v", err)
	}
	if s.Stats().Queries != 1 {
		t.Fatal("stats lost on close")
	}
	if _, err := NewSolver(-1); err == nil {
		t.Fatal("negative timeout accepted")
	}
}

// BenchmarkPushAssertCheckPop measures one incremental feasibility step.
func BenchmarkPushAssertCheckPop(bm *testing.B) {
	for _, ms := range []int{0, 1000} {
		bm.Run(fmt.Sprintf("timeout=%dms", ms), func(bm *testing.B) { benchIncremental(bm, ms) })
	}
}

func benchIncremental(bm *testing.B, timeoutMS int) {
	s := newSolver(bm, timeoutMS)
	if err := s.Assert(and(bin(ir.OpGe, x, n(0)), bin(ir.OpLe, y, n(100)))); err != nil {
		bm.Fatal(err)
	}
	fs := make([]ir.Expr, 16)
	for i := range fs {
		fs[i] = and(bin(ir.OpLt, bin(ir.OpAdd, x, y), n(int64(i))), bin(ir.OpGt, bin(ir.OpSub, x, bin(ir.OpMul, n(2), y)), n(int64(-i))))
	}
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		s.Push()
		if err := s.Assert(fs[i%len(fs)]); err != nil {
			bm.Fatal(err)
		}
		if _, err := s.Check(); err != nil {
			bm.Fatal(err)
		}
		s.Pop()
	}
}

// BenchmarkSatMiss measures an uncached standalone query (distinct each time).
func BenchmarkSatMiss(bm *testing.B) {
	s := newSolver(bm, 0)
	for i := 0; i < bm.N; i++ {
		f := and(bin(ir.OpGt, x, n(int64(i))), bin(ir.OpLt, bin(ir.OpAdd, x, y), n(int64(2*i))))
		if _, err := s.Sat(f); err != nil {
			bm.Fatal(err)
		}
	}
}

// BenchmarkSatHit measures a cached standalone query.
func BenchmarkSatHit(bm *testing.B) {
	s := newSolver(bm, 0)
	f := and(bin(ir.OpGt, x, n(3)), bin(ir.OpLt, bin(ir.OpAdd, x, y), n(7)))
	if _, err := s.Sat(f); err != nil {
		bm.Fatal(err)
	}
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		if _, err := s.Sat(f); err != nil {
			bm.Fatal(err)
		}
	}
}

// BenchmarkNewSolver is what a solver per query would cost.
func BenchmarkNewSolver(bm *testing.B) {
	for i := 0; i < bm.N; i++ {
		s, err := NewSolver(0)
		if err != nil {
			bm.Fatal(err)
		}
		s.Close()
	}
}

// hard is a nonlinear query Z3 cannot answer quickly: factor a 62-bit
// semiprime.
func hard() ir.Expr {
	const nn = 3037000493 * 1518500213 // two primes
	return and(bin(ir.OpEq, bin(ir.OpMul, x, y), n(nn)), bin(ir.OpGt, x, n(1)), bin(ir.OpGt, y, n(1)))
}

func TestReset(t *testing.T) {
	s := newSolver(t, 0)
	if _, err := s.Sat(bin(ir.OpGt, x, n(0))); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(ir.False); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if res, _ := s.Check(); res != Unsat {
		t.Fatalf("Check = %s, want unsat", res)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if s.Depth() != 0 {
		t.Fatalf("depth %d after Reset", s.Depth())
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("Check after Reset = %s %v, want sat", res, err)
	}
	if m, err := s.Model(); err != nil || m.Len() != 0 {
		t.Fatalf("model after Reset: %v %v", m.Len(), err)
	}
	if _, err := s.Sat(bin(ir.OpGt, x, n(0))); err != nil || s.Stats().CacheHits != 1 {
		t.Fatalf("cache lost by Reset: %+v %v", s.Stats(), err)
	}
	s.Pop() // unbalanced
	if err := s.Assert(p); !errors.Is(err, ErrScope) {
		t.Fatalf("Assert after unbalanced Pop: %v", err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(p); err != nil {
		t.Fatalf("Assert after Reset: %v", err)
	}
}

func TestInterrupt(t *testing.T) {
	s := newSolver(t, 0)
	go func() {
		time.Sleep(200 * time.Millisecond)
		s.Interrupt()
	}()
	start := time.Now()
	if _, err := s.Sat(hard()); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("interrupted Sat: %v, want ErrInterrupted", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("interrupt took %v", d)
	}
	if _, err := s.Check(); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Check after Interrupt: %v, want ErrInterrupted", err)
	}
	if _, err := s.Valid(p); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Valid after Interrupt: %v, want ErrInterrupted", err)
	}
	s.Close()
	s.Interrupt() // harmless once closed
}

// Z3 must leave SIGINT to the Go program, even during a check.
func TestCtrlCDisabled(t *testing.T) {
	s := newSolver(t, 1500)
	if !s.sigintOff {
		t.Fatal("could not disable Z3's SIGINT handler: go-z3 layout changed?")
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	defer signal.Stop(ch)
	go func() {
		time.Sleep(200 * time.Millisecond)
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	if _, err := s.Sat(hard()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(2 * time.Second):
		t.Fatal("SIGINT sent during a check never reached the Go program")
	}
}
