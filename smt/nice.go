package smt

import (
	"math/big"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// NiceModel returns a model of the asserted formulas whose values a
// person reads and a replay reproduces, if the formulas allow one; else
// m itself. m must be the model of the last Sat Check; the solver's
// scopes are as before.
//
// First every Real value of m that is not a multiple of 1/scale becomes
// one: a counterexample's inputs and rows are then plain decimals (9.5,
// not 19/2's neighbour 6.333333…), and a program replayed with them as
// float64 takes the same branches, where the float nearest to 20/3 may
// not (it compares differently with 20/3 × 0.95). Then every Int value
// beyond ±niceInt is asked to lie within it: Go's integers wrap around,
// and a solver free to pick 2^63-1 for an amount picks it, though a
// balance of 5 breaks the constraint as well; runs near the types' limits
// are then reported only where the bug needs them. Each step costs one
// more check, only when m has such values.
func (s *Solver) NiceModel(m *Model, scale int64) (*Model, error) {
	m, err := s.niceReals(m, scale)
	if err != nil {
		return nil, err
	}
	return s.smallInts(m)
}

// niceInt bounds the integers of a nice model (see NiceModel).
const niceInt = 1 << 20

// smallInts is NiceModel's second step.
func (s *Solver) smallInts(m *Model) (*Model, error) {
	if m == nil {
		return m, nil
	}
	bound := big.NewInt(niceInt)
	// Values in [-2^62, -2^61) are most likely string codes
	// (ir.StringCode): those stay.
	codesHi := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 61))
	codesLo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 62))
	var wide []varKey
	for _, k := range s.live {
		v, ok := m.vals[k]
		if k.sort != ir.Int || !ok || v.R == nil {
			continue
		}
		n := v.R.Num()
		if code := n.Cmp(codesLo) >= 0 && n.Cmp(codesHi) < 0; n.CmpAbs(bound) > 0 && !code {
			wide = append(wide, k)
		}
	}
	if len(wide) == 0 {
		return m, nil
	}
	s.Push()
	defer s.Pop()
	err := guard("nice model", func() error {
		lo, hi := s.ctx.FromInt(-niceInt, s.intSort).(z3.Int), s.ctx.FromInt(niceInt, s.intSort).(z3.Int)
		for _, k := range wide {
			c, err := s.constant(k)
			if err != nil {
				return err
			}
			s.main.Assert(c.(z3.Int).GE(lo).And(c.(z3.Int).LE(hi)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r, err := s.Check()
	if err != nil || r != Sat {
		return m, err
	}
	return s.Model()
}

// niceReals is NiceModel's first step.
func (s *Solver) niceReals(m *Model, scale int64) (*Model, error) {
	if m == nil || scale <= 0 {
		return m, nil
	}
	sc := big.NewInt(scale)
	var ugly []varKey
	for _, k := range s.live {
		v, ok := m.vals[k]
		if k.sort != ir.Real || !ok || v.R == nil {
			continue
		}
		if new(big.Int).Mod(sc, v.R.Denom()).Sign() != 0 {
			ugly = append(ugly, k)
		}
	}
	if len(ugly) == 0 {
		return m, nil
	}
	s.Push()
	defer s.Pop()
	err := guard("nice model", func() error {
		for _, k := range ugly {
			c, err := s.constant(k)
			if err != nil {
				return err
			}
			scaled := c.(z3.Real).Mul(s.ctx.FromInt(scale, s.realSort).(z3.Real))
			s.main.Assert(scaled.IsInt())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r, err := s.Check()
	if err != nil || r != Sat {
		return m, err
	}
	return s.Model()
}
