package abstraction

import (
	"math/big"
	"sort"

	"github.com/dbverify/dbverify/ir"
)

// Canonical returns the positive form of the atom a and whether a is the
// negation of that form, so that p and ¬p name one predicate:
//
//   - negations are stripped, and x < y, x > y, x != y become ¬(x >= y),
//     ¬(x <= y), ¬(x == y);
//   - a comparison of linear terms is normalised to Σ cᵢ·tᵢ op k with the
//     terms sorted, integer coefficients divided by their gcd, and the sign
//     chosen so that positive coefficients dominate: r.balance - amt >= 1000
//     and amt - r.balance <= -1000 print the same;
//   - boolean equalities have their operands ordered.
//
// The result is equivalent to a (or to ¬a when negated is true). A
// comparison that folds to a constant is returned as ir.True or ir.False.
// Non-comparisons (boolean variables, compound formulas) are returned
// unchanged apart from the stripped negations.
func Canonical(a ir.Expr) (pos ir.Expr, negated bool) {
	for {
		u, ok := a.(*ir.Unary)
		if !ok || u.Op != ir.OpNot {
			break
		}
		a, negated = u.X, !negated
	}
	if c, ok := a.(ir.BoolConst); ok && negated {
		return !c, false
	}
	b, ok := a.(*ir.Binary)
	if !ok || !b.Op.IsComparison() {
		return a, negated
	}
	op := b.Op
	switch op {
	case ir.OpLt:
		op, negated = ir.OpGe, !negated
	case ir.OpGt:
		op, negated = ir.OpLe, !negated
	case ir.OpNe:
		op, negated = ir.OpEq, !negated
	}
	if b.X.Sort() == ir.Bool {
		x, y := b.X, b.Y
		if y.String() < x.String() {
			x, y = y, x
		}
		return ir.Cmp(ir.OpEq, x, y), negated
	}
	e := linearCmp(op, b.X, b.Y)
	if c, ok := e.(ir.BoolConst); ok && negated {
		return !c, false
	}
	return e, negated
}

// Key returns the text that identifies the predicate of atom a: equal for
// a, ¬a and every variant Canonical maps to the same form.
func Key(a ir.Expr) string {
	p, _ := Canonical(a)
	return p.String()
}

// linear is Σ coef[k]·terms[k] + k0.
type linear struct {
	coef  map[string]*big.Rat
	terms map[string]ir.Expr
	k0    *big.Rat
	real  bool
}

func (l *linear) add(e ir.Expr, scale *big.Rat) {
	switch e := e.(type) {
	case *ir.IntConst:
		l.k0.Add(l.k0, new(big.Rat).Mul(scale, new(big.Rat).SetInt(e.V)))
		return
	case *ir.RealConst:
		l.real = true
		l.k0.Add(l.k0, new(big.Rat).Mul(scale, e.V))
		return
	case *ir.ToReal:
		l.real = true
		l.add(e.X, scale)
		return
	case *ir.Unary:
		if e.Op == ir.OpNeg {
			l.add(e.X, new(big.Rat).Neg(scale))
			return
		}
	case *ir.Binary:
		switch e.Op {
		case ir.OpAdd:
			l.add(e.X, scale)
			l.add(e.Y, scale)
			return
		case ir.OpSub:
			l.add(e.X, scale)
			l.add(e.Y, new(big.Rat).Neg(scale))
			return
		case ir.OpMul:
			if c, ok := ratOf(e.X); ok {
				l.add(e.Y, new(big.Rat).Mul(scale, c))
				return
			}
			if c, ok := ratOf(e.Y); ok {
				l.add(e.X, new(big.Rat).Mul(scale, c))
				return
			}
		}
	}
	if e.Sort() == ir.Real {
		l.real = true
	}
	k := e.String()
	if _, ok := l.terms[k]; !ok {
		l.terms[k] = e
		l.coef[k] = new(big.Rat)
	}
	l.coef[k].Add(l.coef[k], scale)
}

func ratOf(e ir.Expr) (*big.Rat, bool) {
	switch e := e.(type) {
	case *ir.IntConst:
		return new(big.Rat).SetInt(e.V), true
	case *ir.RealConst:
		return e.V, true
	}
	return nil, false
}

// linearCmp normalises x op y (op is ==, <= or >=) over numbers.
func linearCmp(op ir.Op, x, y ir.Expr) ir.Expr {
	l := &linear{coef: map[string]*big.Rat{}, terms: map[string]ir.Expr{}, k0: new(big.Rat)}
	l.add(x, big.NewRat(1, 1))
	l.add(y, big.NewRat(-1, 1))
	var keys []string
	for k, c := range l.coef {
		if c.Sign() != 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	rhs := new(big.Rat).Neg(l.k0) // Σ cᵢ tᵢ op rhs
	if len(keys) == 0 {
		return ir.Cmp(op, ratConst(big.NewRat(0, 1), false), ratConst(rhs, false))
	}
	coef := make([]*big.Rat, len(keys))
	for i, k := range keys {
		coef[i] = new(big.Rat).Set(l.coef[k])
	}
	if !l.real && allInts(coef) && rhs.IsInt() {
		g := new(big.Int)
		for _, c := range coef {
			g.GCD(nil, nil, g, new(big.Int).Abs(c.Num()))
		}
		if g.Cmp(big.NewInt(1)) > 0 {
			gr := new(big.Rat).SetInt(g)
			for _, c := range coef {
				c.Quo(c, gr)
			}
			q := new(big.Rat).Quo(rhs, gr)
			switch {
			case q.IsInt():
				rhs = q
			case op == ir.OpEq:
				return ir.False
			case op == ir.OpLe:
				rhs = new(big.Rat).SetInt(floor(q))
			default:
				rhs = new(big.Rat).SetInt(new(big.Int).Add(floor(q), big.NewInt(1)))
			}
		}
	}
	npos, nneg := 0, 0
	for _, c := range coef {
		if c.Sign() > 0 {
			npos++
		} else {
			nneg++
		}
	}
	flip := nneg > npos ||
		nneg == npos && rhs.Sign() < 0 ||
		nneg == npos && rhs.Sign() == 0 && coef[0].Sign() < 0
	if flip {
		for _, c := range coef {
			c.Neg(c)
		}
		rhs.Neg(rhs)
		switch op {
		case ir.OpLe:
			op = ir.OpGe
		case ir.OpGe:
			op = ir.OpLe
		}
	}
	var lhs, neg ir.Expr
	for i, k := range keys {
		t := term(coef[i], l.terms[k], l.real)
		if coef[i].Sign() > 0 {
			lhs = sum(lhs, t)
		} else {
			neg = sum(neg, t)
		}
	}
	if rhs.Sign() == 0 && neg != nil {
		return ir.Cmp(op, lhs, neg)
	}
	if neg != nil {
		lhs = ir.Sub(lhs, neg)
	}
	return ir.Cmp(op, lhs, ratConst(rhs, l.real))
}

func allInts(cs []*big.Rat) bool {
	for _, c := range cs {
		if !c.IsInt() {
			return false
		}
	}
	return true
}

// floor returns ⌊q⌋.
func floor(q *big.Rat) *big.Int {
	z, _ := new(big.Int).DivMod(q.Num(), q.Denom(), new(big.Int))
	return z // Euclidean division by a positive denominator is the floor
}

// term returns |c|·t.
func term(c *big.Rat, t ir.Expr, real bool) ir.Expr {
	a := new(big.Rat).Abs(c)
	if a.Cmp(big.NewRat(1, 1)) == 0 {
		return t
	}
	return ir.Arith(ir.OpMul, ratConst(a, real || t.Sort() == ir.Real), t)
}

func sum(acc, t ir.Expr) ir.Expr {
	if acc == nil {
		return t
	}
	return ir.Add(acc, t)
}

func ratConst(r *big.Rat, real bool) ir.Expr {
	if !real && r.IsInt() {
		return ir.BigInt(r.Num())
	}
	return ir.RealLit(r)
}

// Solve returns an expression e without x such that the equality eq is
// equivalent to x == e, when eq is an equality in which x occurs only as
// a linear term (with coefficient ±1 over the integers). ok is false
// otherwise.
func Solve(eq ir.Expr, x *ir.Var) (e ir.Expr, ok bool) {
	b, isBin := eq.(*ir.Binary)
	if !isBin || b.Op != ir.OpEq {
		return nil, false
	}
	only := map[*ir.Var]bool{x: true}
	if b.X.Sort() == ir.Bool {
		switch {
		case b.X == ir.Expr(x) && !ir.Mentions(b.Y, only):
			return b.Y, true
		case b.Y == ir.Expr(x) && !ir.Mentions(b.X, only):
			return b.X, true
		}
		return nil, false
	}
	l := &linear{coef: map[string]*big.Rat{}, terms: map[string]ir.Expr{}, k0: new(big.Rat)}
	l.add(b.X, big.NewRat(1, 1))
	l.add(b.Y, big.NewRat(-1, 1))
	var c *big.Rat
	var keys []string
	for k, t := range l.terms {
		if l.coef[k].Sign() == 0 {
			continue
		}
		if t == ir.Expr(x) {
			c = l.coef[k]
			continue
		}
		if ir.Mentions(t, only) {
			return nil, false
		}
		keys = append(keys, k)
	}
	if c == nil {
		return nil, false
	}
	if x.Type == ir.Int && (l.real || new(big.Rat).Abs(c).Cmp(big.NewRat(1, 1)) != 0) {
		return nil, false
	}
	sort.Strings(keys)
	// c·x + Σ cᵢ tᵢ + k0 = 0  ⇔  x = Σ (-cᵢ/c) tᵢ + (-k0/c)
	real := x.Type == ir.Real
	var sumE ir.Expr
	for _, k := range keys {
		q := new(big.Rat).Quo(l.coef[k], c)
		q.Neg(q)
		t := term(q, l.terms[k], real)
		switch {
		case sumE == nil && q.Sign() > 0:
			sumE = t
		case sumE == nil:
			sumE = ir.Neg(t)
		case q.Sign() > 0:
			sumE = ir.Add(sumE, t)
		default:
			sumE = ir.Sub(sumE, t)
		}
	}
	k := new(big.Rat).Quo(l.k0, c)
	k.Neg(k)
	if sumE == nil {
		return ratConst(k, real), true
	}
	if k.Sign() != 0 {
		sumE = ir.Add(sumE, ratConst(k, real))
	}
	if real && sumE.Sort() == ir.Int {
		sumE = ir.AsReal(sumE)
	}
	return sumE, true
}

// Combine eliminates x from the comparisons a and b as Fourier-Motzkin
// does: with a ≡ Σa + cₐ·x ⋈ kₐ and b ≡ Σb + c_b·x ⋈ k_b it returns the
// canonical forms of c_b·(Σa - kₐ) - cₐ·(Σb - k_b) <= 0 and of the same
// >= 0, the comparisons of the two bounds on x. ok is false unless x
// occurs in both only as a linear term. The relations (and so the
// polarities) of a and b are ignored, which is why both forms are given:
// the results are candidate predicates, not consequences.
func Combine(a, b ir.Expr, x *ir.Var) (le, ge ir.Expr, ok bool) {
	la, ca, ok := linearIn(a, x)
	if !ok {
		return nil, nil, false
	}
	lb, cb, ok := linearIn(b, x)
	if !ok || la.real != lb.real {
		return nil, nil, false
	}
	// cb·La - ca·Lb, where L = Σ + c·x + k0 (the left side minus the right).
	out := &linear{coef: map[string]*big.Rat{}, terms: map[string]ir.Expr{}, k0: new(big.Rat), real: la.real}
	for _, side := range []struct {
		l *linear
		m *big.Rat
	}{{la, cb}, {lb, new(big.Rat).Neg(ca)}} {
		for k, c := range side.l.coef {
			if side.l.terms[k] == ir.Expr(x) {
				continue
			}
			if _, ok := out.terms[k]; !ok {
				out.terms[k] = side.l.terms[k]
				out.coef[k] = new(big.Rat)
			}
			out.coef[k].Add(out.coef[k], new(big.Rat).Mul(c, side.m))
		}
		out.k0.Add(out.k0, new(big.Rat).Mul(side.l.k0, side.m))
	}
	var sum ir.Expr
	keys := make([]string, 0, len(out.coef))
	for k, c := range out.coef {
		if c.Sign() != 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil, false
	}
	sort.Strings(keys)
	for _, k := range keys {
		t := term(out.coef[k], out.terms[k], out.real)
		switch {
		case sum == nil && out.coef[k].Sign() > 0:
			sum = t
		case sum == nil:
			sum = ir.Neg(t)
		case out.coef[k].Sign() > 0:
			sum = ir.Add(sum, t)
		default:
			sum = ir.Sub(sum, t)
		}
	}
	k := ratConst(new(big.Rat).Neg(out.k0), out.real)
	le, _ = Canonical(ir.Cmp(ir.OpLe, sum, k))
	ge, _ = Canonical(ir.Cmp(ir.OpGe, sum, k))
	_, c1 := le.(ir.BoolConst)
	_, c2 := ge.(ir.BoolConst)
	if c1 || c2 {
		return nil, nil, false
	}
	return le, ge, true
}

// linearIn returns the linear form of the comparison e (left side minus
// right side) and the coefficient of x in it, if x occurs in e only as a
// linear term with a nonzero coefficient.
func linearIn(e ir.Expr, x *ir.Var) (*linear, *big.Rat, bool) {
	b, ok := e.(*ir.Binary)
	if !ok || !b.Op.IsComparison() || b.X.Sort() == ir.Bool {
		return nil, nil, false
	}
	l := &linear{coef: map[string]*big.Rat{}, terms: map[string]ir.Expr{}, k0: new(big.Rat)}
	l.add(b.X, big.NewRat(1, 1))
	l.add(b.Y, big.NewRat(-1, 1))
	only := map[*ir.Var]bool{x: true}
	var c *big.Rat
	for k, t := range l.terms {
		if l.coef[k].Sign() == 0 {
			continue
		}
		if t == ir.Expr(x) {
			c = l.coef[k]
		} else if ir.Mentions(t, only) {
			return nil, nil, false
		}
	}
	if c == nil {
		return nil, nil, false
	}
	return l, c, true
}
