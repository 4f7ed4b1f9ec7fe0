package smt

import (
	"math/big"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// NiceModel returns a model of the asserted formulas in which every Real
// value of m that is not a multiple of 1/scale becomes one, if the
// formulas allow it; else m itself. m must be the model of the last Sat
// Check. A counterexample's inputs and rows are then plain decimals
// (9.5, not 19/2's neighbour 6.333333…): a program replayed with them as
// float64 takes the same branches, where the float nearest to 20/3 may
// not (it compares differently with 20/3 × 0.95). It costs one more
// check, only when m has such a value; the solver's scopes are as before.
func (s *Solver) NiceModel(m *Model, scale int64) (*Model, error) {
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
