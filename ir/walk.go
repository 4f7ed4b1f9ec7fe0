package ir

import "sort"

// Equal reports whether x and y are the same expression, syntactically.
func Equal(x, y Expr) bool {
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *IntConst:
		y, ok := y.(*IntConst)
		return ok && x.V.Cmp(y.V) == 0
	case *RealConst:
		y, ok := y.(*RealConst)
		return ok && x.V.Cmp(y.V) == 0
	case *Unary:
		y, ok := y.(*Unary)
		return ok && x.Op == y.Op && Equal(x.X, y.X)
	case *Binary:
		y, ok := y.(*Binary)
		return ok && x.Op == y.Op && Equal(x.X, y.X) && Equal(x.Y, y.Y)
	case *Ite:
		y, ok := y.(*Ite)
		return ok && Equal(x.Cond, y.Cond) && Equal(x.Then, y.Then) && Equal(x.Else, y.Else)
	case *ToReal:
		y, ok := y.(*ToReal)
		return ok && Equal(x.X, y.X)
	}
	return false
}

// Substitute returns e with every variable v in m replaced by m[v].
// The replacement is simultaneous.
func Substitute(e Expr, m map[*Var]Expr) Expr {
	if len(m) == 0 {
		return e
	}
	switch e := e.(type) {
	case *Var:
		if r, ok := m[e]; ok {
			return r
		}
		return e
	case *Unary:
		x := Substitute(e.X, m)
		if x == e.X {
			return e
		}
		if e.Op == OpNot {
			return Not(x)
		}
		return Neg(x)
	case *Binary:
		x, y := Substitute(e.X, m), Substitute(e.Y, m)
		if x == e.X && y == e.Y {
			return e
		}
		return Rebuild(e.Op, x, y)
	case *Ite:
		c, t, f := Substitute(e.Cond, m), Substitute(e.Then, m), Substitute(e.Else, m)
		if c == e.Cond && t == e.Then && f == e.Else {
			return e
		}
		return IteOf(c, t, f)
	case *ToReal:
		x := Substitute(e.X, m)
		if x == e.X {
			return e
		}
		return AsReal(x)
	}
	return e
}

// Rebuild returns x op y through the simplifying constructors.
func Rebuild(op Op, x, y Expr) Expr {
	switch op {
	case OpAnd:
		return And(x, y)
	case OpOr:
		return Or(x, y)
	case OpImplies:
		return Implies(x, y)
	}
	if op.IsComparison() {
		return Cmp(op, x, y)
	}
	return Arith(op, x, y)
}

// Vars returns the variables of e, sorted by name.
func Vars(e Expr) []*Var {
	set := map[*Var]bool{}
	CollectVars(e, set)
	out := make([]*Var, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Inspect calls f on e and on each of its subexpressions, in pre-order.
func Inspect(e Expr, f func(Expr)) {
	f(e)
	switch e := e.(type) {
	case *Unary:
		Inspect(e.X, f)
	case *Binary:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *Ite:
		Inspect(e.Cond, f)
		Inspect(e.Then, f)
		Inspect(e.Else, f)
	case *ToReal:
		Inspect(e.X, f)
	}
}

// CollectVars adds the variables of e to set.
func CollectVars(e Expr, set map[*Var]bool) {
	Inspect(e, func(x Expr) {
		if v, ok := x.(*Var); ok {
			set[v] = true
		}
	})
}

// Mentions reports whether e uses any variable in set.
func Mentions(e Expr, set map[*Var]bool) bool {
	switch e := e.(type) {
	case *Var:
		return set[e]
	case *Unary:
		return Mentions(e.X, set)
	case *Binary:
		return Mentions(e.X, set) || Mentions(e.Y, set)
	case *Ite:
		return Mentions(e.Cond, set) || Mentions(e.Then, set) || Mentions(e.Else, set)
	case *ToReal:
		return Mentions(e.X, set)
	}
	return false
}

// Atoms returns the atomic boolean formulas of e: comparisons and boolean
// variables, with if-then-else lifted out of atoms (an atom over
// ite(c, a, b) yields c and the atom over a and over b). Constants are
// dropped and duplicates removed; the order is that of first occurrence.
func Atoms(e Expr) []Expr {
	var out []Expr
	seen := map[string]bool{}
	var add func(a Expr)
	add = func(a Expr) {
		if _, ok := a.(BoolConst); ok {
			return
		}
		if n, ok := a.(*Unary); ok && n.Op == OpNot {
			add(n.X)
			return
		}
		if c, t, f, ok := liftIte(a); ok {
			walkBool(c, add)
			walkBool(t, add)
			walkBool(f, add)
			return
		}
		k := a.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	walkBool(e, add)
	return out
}

// walkBool calls atom for each maximal non-connective subformula of e.
func walkBool(e Expr, atom func(Expr)) {
	switch x := e.(type) {
	case *Unary:
		if x.Op == OpNot {
			walkBool(x.X, atom)
			return
		}
	case *Binary:
		switch x.Op {
		case OpAnd, OpOr, OpImplies:
			walkBool(x.X, atom)
			walkBool(x.Y, atom)
			return
		}
		if x.X.Sort() == Bool && (x.Op == OpEq || x.Op == OpNe) {
			walkBool(x.X, atom)
			walkBool(x.Y, atom)
			return
		}
	case *Ite:
		if x.Sort() == Bool {
			walkBool(x.Cond, atom)
			walkBool(x.Then, atom)
			walkBool(x.Else, atom)
			return
		}
	}
	atom(e)
}

// liftIte finds the first ite inside the comparison a and returns its
// condition and a with the ite replaced by each branch.
func liftIte(a Expr) (cond, then, els Expr, ok bool) {
	var found *Ite
	var find func(e Expr)
	find = func(e Expr) {
		if found != nil {
			return
		}
		switch e := e.(type) {
		case *Ite:
			found = e
		case *Unary:
			find(e.X)
		case *Binary:
			find(e.X)
			find(e.Y)
		case *ToReal:
			find(e.X)
		}
	}
	find(a)
	if found == nil {
		return nil, nil, nil, false
	}
	return found.Cond, replaceNode(a, found, found.Then), replaceNode(a, found, found.Else), true
}

func replaceNode(e, old, repl Expr) Expr {
	if e == old {
		return repl
	}
	switch e := e.(type) {
	case *Unary:
		if e.Op == OpNot {
			return Not(replaceNode(e.X, old, repl))
		}
		return Neg(replaceNode(e.X, old, repl))
	case *Binary:
		return Rebuild(e.Op, replaceNode(e.X, old, repl), replaceNode(e.Y, old, repl))
	case *ToReal:
		return AsReal(replaceNode(e.X, old, repl))
	case *Ite:
		return IteOf(replaceNode(e.Cond, old, repl), replaceNode(e.Then, old, repl), replaceNode(e.Else, old, repl))
	}
	return e
}
