package smt

import (
	"math/big"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestNiceModel: a model with a fraction that is not in cents is replaced
// by one in cents when the formula allows it, and kept when it does not;
// the solver's scopes are unchanged.
func TestNiceModel(t *testing.T) {
	cases := []struct {
		name string
		f    ir.Expr
		// want: every Real value of the nice model is a multiple of 1/100.
		want bool
	}{
		// 3a = 2b with 1/3 < a: Z3's first model need not be in cents.
		{"cents exist", and(bin(ir.OpEq, bin(ir.OpMul, q(3, 1), a), bin(ir.OpMul, q(2, 1), b)), bin(ir.OpGt, a, q(1, 3)), bin(ir.OpLt, a, q(1, 2))), true},
		// 3a = 1: a is 1/3 in every model.
		{"no cents", bin(ir.OpEq, bin(ir.OpMul, q(3, 1), a), q(1, 1)), false},
	}
	s := newSolver(t, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Push()
			defer s.Pop()
			if err := s.Assert(c.f); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Check(); err != nil || r != Sat {
				t.Fatalf("Check = %v, %v", r, err)
			}
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			first, _ := m.Value(a)
			t.Logf("first model: a = %s", first.R.RatString())
			nice, err := s.NiceModel(m, 100)
			if err != nil {
				t.Fatal(err)
			}
			checkModel(t, c.f, nice)
			cents := true
			for _, v := range []*ir.Var{a, b} {
				val, _ := nice.Value(v)
				if new(big.Int).Mod(big.NewInt(100), val.R.Denom()).Sign() != 0 {
					cents = false
				}
			}
			if cents != c.want {
				av, _ := nice.Value(a)
				t.Errorf("values in cents = %v, want %v (a = %s)", cents, c.want, av.R.RatString())
			}
			if s.Depth() != 1 {
				t.Errorf("depth %d after NiceModel, want 1", s.Depth())
			}
		})
	}
}

// TestTinyInts: where the formulas allow it, the integers of a model
// that lie beyond ±tinyInt (within ±niceInt) are brought within ±tinyInt,
// and those already small stay small (adv12 p13: seatsOut = 1048576,
// seatsBack = -1048566 for a run that needs one seat count below 1); where
// the formulas need a larger value, the model is kept.
func TestTinyInts(t *testing.T) {
	seats := and(bin(ir.OpGe, x, n(1)), bin(ir.OpLe, bin(ir.OpAdd, x, y), n(10)), bin(ir.OpLt, y, n(1)))
	cases := []struct {
		name  string
		f     ir.Expr
		first ir.Expr // forces the model tinyInts starts from
		tiny  bool    // want every value within ±tinyInt
	}{
		{"seats", seats, and(bin(ir.OpGe, x, n(1_000_000)), bin(ir.OpEq, z, n(3))), true},
		{"needs a large value", and(seats, bin(ir.OpGe, z, n(100))), and(bin(ir.OpGe, x, n(1_000_000)), bin(ir.OpGe, z, n(100))), false},
	}
	s := newSolver(t, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Push()
			if err := s.Assert(and(c.f, c.first)); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Check(); err != nil || r != Sat {
				t.Fatalf("Check = %v, %v", r, err)
			}
			wide, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			s.Pop()
			s.Push()
			defer s.Pop()
			if err := s.Assert(c.f); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Check(); err != nil || r != Sat {
				t.Fatalf("Check = %v, %v", r, err)
			}
			m, err := s.tinyInts(wide)
			if err != nil {
				t.Fatal(err)
			}
			checkModel(t, c.f, m)
			small := true
			for _, v := range []*ir.Var{x, y, z} {
				if val, ok := m.Value(v); ok && val.R.Num().CmpAbs(big.NewInt(tinyInt)) > 0 {
					small = false
				}
			}
			if small != c.tiny {
				xv, _ := m.Value(x)
				yv, _ := m.Value(y)
				t.Errorf("values within ±%d = %v, want %v (x = %s, y = %s)", tinyInt, small, c.tiny, xv.R.RatString(), yv.R.RatString())
			}
		})
	}
}
