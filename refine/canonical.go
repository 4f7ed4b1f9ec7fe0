package refine

import (
	"math/big"
	"sort"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// A counterexample that is a function of the problem. The solver's model
// of a formula depends on its internal state, and go-z3 frees terms in
// finalizers, so the garbage collector's timing changes that state: the
// same --concurrent check printed amount = 39, 8856, 1 and 7720 in four
// runs of one job. canonicalModel re-solves the counterexample's path
// formula on a solver of its own and takes, for each of the path's free
// values in the order of their names, the least one the formula allows
// given the values taken before it: an integer of least magnitude (the
// non-negative one of a pair), false before true. Every other value of
// the path is a function of the free ones (assignments), so the model is
// unique: the counterexample is the same whatever the solver's state.
// Reals keep the model's value.

// canonicalTimeoutMS bounds each query of canonicalModel; one that does
// not answer leaves the model as it was.
const canonicalTimeoutMS = 10000

// canonicalModel returns the canonical model of path formula pf, of
// which m is a model; m itself when a query does not answer or the
// canonical model does not validate.
func canonicalModel(pf *vcgen.PathFormula, m vcgen.Model) vcgen.Model {
	s, err := smt.NewSolver(canonicalTimeoutMS)
	if err != nil {
		return m
	}
	defer s.Close()
	f := pf.Formula()
	if pf.RereadRows(m) == "" {
		f = ir.And(f, pf.RereadAgreement())
	}
	if s.Assert(f) != nil {
		return m
	}
	for _, v := range freeVersions(pf) {
		val, ok := m.Value(v)
		if !ok {
			continue
		}
		least, ok := leastValue(s, v, val)
		if !ok || s.Assert(ir.Eq(v, least)) != nil {
			return m
		}
	}
	if r, err := s.Check(); err != nil || r != smt.Sat {
		return m
	}
	cm, err := s.Model()
	if err != nil || vcgen.Validate(pf, cm) != nil || pf.RereadRows(cm) != "" {
		return m
	}
	return cm
}

// freeVersions are the versions of pf that no assignment defines: the
// values the path starts from and those a havoc gives, by name.
func freeVersions(pf *vcgen.PathFormula) []*ir.Var {
	assigned := map[*ir.Var]bool{}
	for _, st := range pf.Steps {
		if _, ok := st.Edge.Stmt.(*ir.Assign); ok {
			for _, d := range st.Defs {
				assigned[d] = true
			}
		}
	}
	var out []*ir.Var
	for _, v := range ir.Vars(pf.Formula()) {
		if !assigned[v] {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// leastValue is the least value of v (see canonicalModel) the asserted
// formulas allow, of which val is one; false when a query does not
// answer.
func leastValue(s *smt.Solver, v *ir.Var, val ir.Value) (ir.Expr, bool) {
	switch v.Type {
	case ir.Bool:
		if sat, ok := satWith(s, ir.Not(v)); !ok {
			return nil, false
		} else if sat {
			return ir.False, true
		}
		return ir.True, true
	case ir.Int:
		if val.R == nil || !val.R.IsInt() {
			return nil, false
		}
		return leastInt(s, v, new(big.Int).Abs(val.R.Num()))
	}
	if val.R == nil {
		return nil, false
	}
	return ir.RealLit(val.R), true
}

// leastInt is the value of least magnitude of integer v, at most hi (a
// magnitude the formulas allow): the least k with some |v| <= k (by
// doubling, then halving), then k if v = k is possible, else -k.
func leastInt(s *smt.Solver, v *ir.Var, hi *big.Int) (ir.Expr, bool) {
	within := func(k *big.Int) (bool, bool) {
		return satWith(s, ir.And(ir.Cmp(ir.OpLe, ir.BigInt(new(big.Int).Neg(k)), v), ir.Cmp(ir.OpLe, v, ir.BigInt(k))))
	}
	lo := big.NewInt(-1) // the greatest magnitude known not to suffice
	for k := big.NewInt(0); k.Cmp(hi) < 0; k = new(big.Int).Add(new(big.Int).Lsh(k, 1), big.NewInt(1)) {
		sat, ok := within(k)
		if !ok {
			return nil, false
		}
		if sat {
			hi = k
			break
		}
		lo = k
	}
	for new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) > 0 {
		mid := new(big.Int).Rsh(new(big.Int).Add(lo, hi), 1)
		sat, ok := within(mid)
		if !ok {
			return nil, false
		}
		if sat {
			hi = mid
		} else {
			lo = mid
		}
	}
	pos := ir.BigInt(hi)
	sat, ok := satWith(s, ir.Eq(v, pos))
	if !ok {
		return nil, false
	}
	if sat {
		return pos, true
	}
	return ir.BigInt(new(big.Int).Neg(hi)), true
}

// satWith reports whether the asserted formulas and e are satisfiable;
// false second when the solver does not answer.
func satWith(s *smt.Solver, e ir.Expr) (sat, ok bool) {
	s.Push()
	defer s.Pop()
	if s.Assert(e) != nil {
		return false, false
	}
	r, err := s.Check()
	if err != nil || r == smt.Unknown {
		return false, false
	}
	return r == smt.Sat, true
}
