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
	m, err = s.canonicalDecimals(m)
	if err != nil {
		return nil, err
	}
	m, err = s.plainVariants(m)
	if err != nil {
		return nil, err
	}
	m, err = s.smallInts(m)
	if err != nil {
		return nil, err
	}
	return s.tinyInts(m)
}

// decimalVariant reports the code of a string variant of a decimal
// integer's text ("007", "7 ").
func decimalVariant(code *big.Int) bool {
	b, _, _, ok := ir.DecodeVariant(code)
	return ok && b.CmpAbs(big.NewInt(ir.MaxDecimalCode)) <= 0
}

// canonicalDecimals is NiceModel's second step: a string variant of a
// decimal base is asked to be a decimal integer's canonical text ("7",
// not "007"), as a Go string bound next to an integer column is where a
// variant does not make two strings one value.
func (s *Solver) canonicalDecimals(m *Model) (*Model, error) {
	return s.narrow(m, func(k varKey, v ir.Value) bool {
		return k.sort == ir.Int && decimalVariant(v.R.Num())
	}, func(c z3.Value) z3.Bool {
		x, lim := c.(z3.Int), s.ctx.FromInt(ir.MaxDecimalCode, s.intSort).(z3.Int)
		return x.GE(lim.Neg()).And(x.LE(lim))
	})
}

// plainVariants is NiceModel's third step: a string variant (ir's string
// variants, two Go strings one value for a collation) of a decimal base is
// asked to be a variant of a non-decimal one ("str1"/"STR1", not
// "-0999…"/"-999…").
func (s *Solver) plainVariants(m *Model) (*Model, error) {
	decimal := decimalVariant
	hashLo, hashHi := new(big.Int).Lsh(big.NewInt(-1), 62), new(big.Int).Lsh(big.NewInt(-1), 61)
	return s.narrow(m, func(k varKey, v ir.Value) bool {
		return k.sort == ir.Int && decimal(v.R.Num())
	}, func(c z3.Value) z3.Bool {
		x := c.(z3.Int)
		var alts []z3.Bool
		for q := 0; q < ir.VariantCases; q++ {
			for k := 0; k < ir.VariantPads; k++ {
				if q == 0 && k == 0 {
					continue
				}
				lo, hi := ir.VariantCode(hashLo, q, k), ir.VariantCode(hashHi, q, k)
				alts = append(alts, x.GE(s.ctx.FromBigInt(lo, s.intSort).(z3.Int)).And(x.LT(s.ctx.FromBigInt(hi, s.intSort).(z3.Int))))
			}
		}
		return alts[0].Or(alts[1:]...)
	})
}

// niceInt bounds the integers of a nice model (see NiceModel).
const niceInt = 1 << 20

// smallInts is NiceModel's last step.
func (s *Solver) smallInts(m *Model) (*Model, error) {
	bound := big.NewInt(niceInt)
	// Values in [-2^62, -2^61) are most likely string codes
	// (ir.StringCode): those stay.
	codesHi := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 61))
	codesLo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 62))
	wide := func(k varKey, v ir.Value) bool {
		n := v.R.Num()
		code := n.Cmp(codesLo) >= 0 && n.Cmp(codesHi) < 0 || ir.IsVariantCode(n)
		return k.sort == ir.Int && n.CmpAbs(bound) > 0 && !code
	}
	return s.narrow(m, wide, func(c z3.Value) z3.Bool {
		lo, hi := s.ctx.FromInt(-niceInt, s.intSort).(z3.Int), s.ctx.FromInt(niceInt, s.intSort).(z3.Int)
		return c.(z3.Int).GE(lo).And(c.(z3.Int).LE(hi))
	})
}

// tinyInt bounds the integers of a nice model where the formulas allow
// it (see tinyInts).
const tinyInt = 16

// tinyTrigger is the magnitude from which an integer of a nice model is
// taken for one the solver pushed to smallInts' bound (see tinyInts).
const tinyTrigger = 1 << 16

// tinyInts is NiceModel's step after smallInts: where an integer of m
// lies beyond ±tinyTrigger but within ±niceInt, every integer of m within
// ±niceInt (string codes aside) is asked to lie within ±tinyInt. The
// solver puts a bounded value at its bound, and smallInts' bound made
// a run that needs one negative amount print seatsOut = 1048576,
// seatsBack = -1048566 (adv12 p13); within ±tinyInt it prints 16 and -6.
// The integers beyond ±niceInt (a wrap-around the bug needs) stay free;
// the others are all held within ±tinyInt, so that none grows. A model
// without such values costs no query (an amount of 100 the program's
// constants ask for is left as it is).
func (s *Solver) tinyInts(m *Model) (*Model, error) {
	if m == nil {
		return m, nil
	}
	trigger, bound := big.NewInt(tinyTrigger), big.NewInt(niceInt)
	plain := func(k varKey, v ir.Value) bool {
		n := v.R.Num()
		return k.sort == ir.Int && v.R.IsInt() && n.CmpAbs(bound) <= 0 && !ir.IsVariantCode(n)
	}
	wide := false
	for _, k := range s.live {
		if v, ok := m.vals[k]; ok && v.R != nil && plain(k, v) && v.R.Num().CmpAbs(trigger) > 0 {
			wide = true
			break
		}
	}
	if !wide {
		return m, nil
	}
	return s.narrow(m, plain, func(c z3.Value) z3.Bool {
		lo, hi := s.ctx.FromInt(-tinyInt, s.intSort).(z3.Int), s.ctx.FromInt(tinyInt, s.intSort).(z3.Int)
		return c.(z3.Int).GE(lo).And(c.(z3.Int).LE(hi))
	})
}

// niceReals is NiceModel's first step.
func (s *Solver) niceReals(m *Model, scale int64) (*Model, error) {
	if scale <= 0 {
		return m, nil
	}
	sc := big.NewInt(scale)
	ugly := func(k varKey, v ir.Value) bool {
		return k.sort == ir.Real && new(big.Int).Mod(sc, v.R.Denom()).Sign() != 0
	}
	return s.narrow(m, ugly, func(c z3.Value) z3.Bool {
		return c.(z3.Real).Mul(s.ctx.FromInt(scale, s.realSort).(z3.Real)).IsInt()
	})
}

// narrow asks once, in a scope of its own, for a model of the asserted
// formulas in which every variable whose value in m is off (by off)
// satisfies want; it returns that model, or m when there is none or no
// variable is off.
func (s *Solver) narrow(m *Model, off func(varKey, ir.Value) bool, want func(z3.Value) z3.Bool) (*Model, error) {
	if m == nil {
		return m, nil
	}
	var keys []varKey
	for _, k := range s.live {
		if v, ok := m.vals[k]; ok && v.R != nil && off(k, v) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return m, nil
	}
	s.Push()
	defer s.Pop()
	err := guard("nice model", func() error {
		for _, k := range keys {
			c, err := s.constant(k)
			if err != nil {
				return err
			}
			s.assertMain(want(c))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A nicer model is optional: its query gets a fraction of the work
	// limit (big rationals, as in a float rounding bound, made it run
	// for minutes).
	if saved := s.RLimit(); saved == 0 || saved > niceRLimit {
		if err := s.SetRLimit(niceRLimit); err != nil {
			return m, err
		}
		defer s.SetRLimit(saved)
	}
	r, err := s.Check()
	if err != nil || r != Sat {
		return m, err
	}
	return s.Model()
}

// niceRLimit bounds a narrowing query (Z3 resource units).
const niceRLimit = 1_000_000
