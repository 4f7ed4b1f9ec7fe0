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
