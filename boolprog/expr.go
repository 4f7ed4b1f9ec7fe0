package boolprog

import "sort"

// MkNot returns !x, folding constants and double negation.
func MkNot(x Expr) Expr {
	switch x := x.(type) {
	case Const:
		return !x
	case *Not:
		return x.X
	}
	return &Not{X: x}
}

// MkAnd returns the conjunction of xs: nested conjunctions are flattened,
// 1s dropped, a 0 makes the result 0; an empty conjunction is 1 and a single
// conjunct is returned as is. Nil operands count as 1.
func MkAnd(xs ...Expr) Expr {
	return mkJunction(xs, true)
}

// MkOr returns the disjunction of xs: nested disjunctions are flattened, 0s
// dropped, a 1 makes the result 1; an empty disjunction is 0 and a single
// disjunct is returned as is. Nil operands count as 0.
func MkOr(xs ...Expr) Expr {
	return mkJunction(xs, false)
}

// mkJunction builds an And (and=true) or an Or (and=false). The unit is
// Const(and), the absorbing element Const(!and).
func mkJunction(xs []Expr, and bool) Expr {
	var out []Expr
	var add func(x Expr) bool // false: absorbing element found
	add = func(x Expr) bool {
		switch x := x.(type) {
		case nil:
			return true
		case Const:
			return bool(x) == and
		case *And:
			if and {
				for _, y := range x.Xs {
					if !add(y) {
						return false
					}
				}
				return true
			}
			if len(x.Xs) == 0 {
				return false // 1 absorbs a disjunction
			}
		case *Or:
			if !and {
				for _, y := range x.Xs {
					if !add(y) {
						return false
					}
				}
				return true
			}
			if len(x.Xs) == 0 {
				return false // 0 absorbs a conjunction
			}
		}
		for _, y := range out {
			if ExprEqual(x, y) {
				return true
			}
		}
		out = append(out, x)
		return true
	}
	for _, x := range xs {
		if !add(x) {
			return Const(!and)
		}
	}
	switch len(out) {
	case 0:
		return Const(and)
	case 1:
		return out[0]
	}
	if and {
		return &And{Xs: out}
	}
	return &Or{Xs: out}
}

// Star is choose(0, 0), the nondeterministic value '*'.
func Star() Choose { return Choose{Pos: Const(false), Neg: Const(false)} }

// ChooseOf is choose(x, !x): the value of x.
func ChooseOf(x Expr) Choose { return Choose{Pos: x, Neg: MkNot(x)} }

// ExprEqual reports whether x and y are structurally equal (nil equals nil).
func ExprEqual(x, y Expr) bool {
	switch x := x.(type) {
	case nil:
		return y == nil
	case Const:
		y, ok := y.(Const)
		return ok && x == y
	case Var:
		y, ok := y.(Var)
		return ok && x == y
	case *Not:
		y, ok := y.(*Not)
		return ok && ExprEqual(x.X, y.X)
	case *And:
		y, ok := y.(*And)
		return ok && exprsEqual(x.Xs, y.Xs)
	case *Or:
		y, ok := y.(*Or)
		return ok && exprsEqual(x.Xs, y.Xs)
	}
	return false
}

func exprsEqual(xs, ys []Expr) bool {
	if len(xs) != len(ys) {
		return false
	}
	for i := range xs {
		if !ExprEqual(xs[i], ys[i]) {
			return false
		}
	}
	return true
}

// Vars returns the variables e reads, sorted, without duplicates.
func Vars(e Expr) []int {
	var vs []int
	vs = appendVars(vs, e)
	return sortUniq(vs)
}

func appendVars(vs []int, e Expr) []int {
	switch e := e.(type) {
	case Var:
		vs = append(vs, int(e))
	case *Not:
		vs = appendVars(vs, e.X)
	case *And:
		for _, x := range e.Xs {
			vs = appendVars(vs, x)
		}
	case *Or:
		for _, x := range e.Xs {
			vs = appendVars(vs, x)
		}
	}
	return vs
}

func sortUniq(vs []int) []int {
	sort.Ints(vs)
	out := vs[:0]
	for i, v := range vs {
		if i == 0 || v != vs[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// stmtVars returns every variable a statement mentions (read or written).
func stmtVars(s Stmt) []int {
	switch s := s.(type) {
	case *Assume:
		return appendVars(nil, s.Cond)
	case *Assign:
		vs := append([]int(nil), s.Vars...)
		for _, c := range s.Values {
			vs = appendVars(vs, c.Pos)
			vs = appendVars(vs, c.Neg)
		}
		return vs
	}
	return nil
}

// Eval evaluates e in the three-valued state s (Kleene logic): the result
// is True or False if every completion of s's Top variables gives that value
// as far as Kleene logic can tell, and Top otherwise. A nil e is true.
// Variables beyond len(s) are Top.
func Eval(e Expr, s []Value) Value {
	v, _ := eval(e, s, True)
	return v
}

// eval is Eval that also returns, when the result is Top, a Top variable
// read by an undetermined subterm: splitting on it makes progress. nilVal
// is the value of a nil expression.
func eval(e Expr, s []Value, nilVal Value) (Value, int) {
	switch e := e.(type) {
	case nil:
		return nilVal, -1
	case Const:
		if e {
			return True, -1
		}
		return False, -1
	case Var:
		if int(e) < len(s) && s[e] != Top {
			return s[e], -1
		}
		return Top, int(e)
	case *Not:
		v, sp := eval(e.X, s, True)
		return notValue(v), sp
	case *And:
		res, split := True, -1
		for _, x := range e.Xs {
			v, sp := eval(x, s, True)
			if v == False {
				return False, -1
			}
			if v == Top && res == True {
				res, split = Top, sp
			}
		}
		return res, split
	case *Or:
		res, split := False, -1
		for _, x := range e.Xs {
			v, sp := eval(x, s, False)
			if v == True {
				return True, -1
			}
			if v == Top && res == False {
				res, split = Top, sp
			}
		}
		return res, split
	}
	panic("boolprog: unknown expression type")
}

func notValue(v Value) Value {
	switch v {
	case True:
		return False
	case False:
		return True
	}
	return Top
}
