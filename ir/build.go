package ir

import "math/big"

// Constructors. They fold constants and apply a few identities so that
// weakest preconditions stay small; they never change an expression's
// meaning.

// True and False are the boolean constants.
const (
	True  = BoolConst(true)
	False = BoolConst(false)
)

// IntLit returns the integer constant n.
func IntLit(n int64) *IntConst { return &IntConst{V: big.NewInt(n)} }

// BigInt returns the integer constant n.
func BigInt(n *big.Int) *IntConst { return &IntConst{V: new(big.Int).Set(n)} }

// RealLit returns the rational constant r.
func RealLit(r *big.Rat) *RealConst { return &RealConst{V: new(big.Rat).Set(r)} }

// Zero returns the zero constant of sort s (false for Bool).
func Zero(s Sort) Expr {
	switch s {
	case Int:
		return IntLit(0)
	case Real:
		return &RealConst{V: new(big.Rat)}
	}
	return False
}

// Not returns !x.
func Not(x Expr) Expr {
	switch x := x.(type) {
	case BoolConst:
		return !x
	case *Unary:
		if x.Op == OpNot {
			return x.X
		}
	case *Binary:
		switch x.Op {
		case OpEq:
			return &Binary{OpNe, x.X, x.Y}
		case OpNe:
			return &Binary{OpEq, x.X, x.Y}
		case OpLt:
			return &Binary{OpGe, x.X, x.Y}
		case OpLe:
			return &Binary{OpGt, x.X, x.Y}
		case OpGt:
			return &Binary{OpLe, x.X, x.Y}
		case OpGe:
			return &Binary{OpLt, x.X, x.Y}
		}
	}
	return &Unary{OpNot, x}
}

// And returns the conjunction of xs (true if empty).
func And(xs ...Expr) Expr {
	var out Expr = True
	for _, x := range xs {
		switch {
		case x == False || out == False:
			return False
		case x == True:
		case out == True:
			out = x
		default:
			out = &Binary{OpAnd, out, x}
		}
	}
	return out
}

// Or returns the disjunction of xs (false if empty).
func Or(xs ...Expr) Expr {
	var out Expr = False
	for _, x := range xs {
		switch {
		case x == True || out == True:
			return True
		case x == False:
		case out == False:
			out = x
		default:
			out = &Binary{OpOr, out, x}
		}
	}
	return out
}

// Implies returns x => y.
func Implies(x, y Expr) Expr {
	switch {
	case x == False || y == True:
		return True
	case x == True:
		return y
	case y == False:
		return Not(x)
	}
	return &Binary{OpImplies, x, y}
}

// IteOf returns "if c then x else y".
func IteOf(c, x, y Expr) Expr {
	switch {
	case c == True:
		return x
	case c == False:
		return y
	case Equal(x, y):
		return x
	}
	if x.Sort() == Bool {
		switch {
		case x == True && y == False:
			return c
		case x == False && y == True:
			return Not(c)
		}
	}
	return &Ite{c, x, y}
}

// Cmp returns x op y for a comparison operator op.
func Cmp(op Op, x, y Expr) Expr {
	x, y = unify(x, y)
	if a, b, ok := consts(x, y); ok {
		c := a.Cmp(b)
		switch op {
		case OpEq:
			return BoolConst(c == 0)
		case OpNe:
			return BoolConst(c != 0)
		case OpLt:
			return BoolConst(c < 0)
		case OpLe:
			return BoolConst(c <= 0)
		case OpGt:
			return BoolConst(c > 0)
		case OpGe:
			return BoolConst(c >= 0)
		}
	}
	if x.Sort() == Bool {
		bx, okx := x.(BoolConst)
		by, oky := y.(BoolConst)
		switch {
		case okx && oky:
			return BoolConst((bx == by) == (op == OpEq))
		case oky && op == OpEq, oky && op == OpNe:
			if bool(by) == (op == OpEq) {
				return x
			}
			return Not(x)
		case okx && op == OpEq, okx && op == OpNe:
			if bool(bx) == (op == OpEq) {
				return y
			}
			return Not(y)
		}
	}
	if Equal(x, y) {
		switch op {
		case OpEq, OpLe, OpGe:
			return True
		case OpNe, OpLt, OpGt:
			return False
		}
	}
	return &Binary{op, x, y}
}

// Eq returns x == y.
func Eq(x, y Expr) Expr { return Cmp(OpEq, x, y) }

// Arith returns x op y for an arithmetic operator op.
func Arith(op Op, x, y Expr) Expr {
	x, y = unify(x, y)
	if a, b, ok := consts(x, y); ok {
		if r, ok := foldArith(op, a, b, x.Sort()); ok {
			return r
		}
	}
	switch op {
	case OpAdd:
		if isZero(y) {
			return x
		}
		if isZero(x) {
			return y
		}
	case OpSub:
		if isZero(y) {
			return x
		}
	case OpMul:
		if isOne(y) {
			return x
		}
		if isOne(x) {
			return y
		}
		if isZero(x) || isZero(y) {
			return Zero(x.Sort())
		}
	}
	return &Binary{op, x, y}
}

// Add returns x + y.
func Add(x, y Expr) Expr { return Arith(OpAdd, x, y) }

// Sub returns x - y.
func Sub(x, y Expr) Expr { return Arith(OpSub, x, y) }

// Neg returns -x.
func Neg(x Expr) Expr {
	if a, ok := constVal(x); ok {
		return ratConst(new(big.Rat).Neg(a), x.Sort())
	}
	return &Unary{OpNeg, x}
}

// AsReal converts x to Real if it is an Int expression.
func AsReal(x Expr) Expr {
	if x.Sort() != Int {
		return x
	}
	if c, ok := x.(*IntConst); ok {
		return &RealConst{V: new(big.Rat).SetInt(c.V)}
	}
	return &ToReal{x}
}

// unify converts an Int operand to Real when the other is Real.
func unify(x, y Expr) (Expr, Expr) {
	if x.Sort() == Real && y.Sort() == Int {
		return x, AsReal(y)
	}
	if x.Sort() == Int && y.Sort() == Real {
		return AsReal(x), y
	}
	return x, y
}

func constVal(x Expr) (*big.Rat, bool) {
	switch x := x.(type) {
	case *IntConst:
		return new(big.Rat).SetInt(x.V), true
	case *RealConst:
		return x.V, true
	}
	return nil, false
}

func consts(x, y Expr) (*big.Rat, *big.Rat, bool) {
	a, ok1 := constVal(x)
	b, ok2 := constVal(y)
	return a, b, ok1 && ok2
}

func ratConst(r *big.Rat, s Sort) Expr {
	if s == Int {
		return &IntConst{V: new(big.Int).Set(r.Num())}
	}
	return &RealConst{V: r}
}

func foldArith(op Op, a, b *big.Rat, s Sort) (Expr, bool) {
	switch op {
	case OpAdd:
		return ratConst(new(big.Rat).Add(a, b), s), true
	case OpSub:
		return ratConst(new(big.Rat).Sub(a, b), s), true
	case OpMul:
		return ratConst(new(big.Rat).Mul(a, b), s), true
	case OpDiv:
		if b.Sign() == 0 {
			return nil, false
		}
		if s == Real {
			return ratConst(new(big.Rat).Quo(a, b), s), true
		}
		return &IntConst{V: new(big.Int).Quo(a.Num(), b.Num())}, true
	case OpMod:
		if b.Sign() == 0 || s != Int {
			return nil, false
		}
		return &IntConst{V: new(big.Int).Rem(a.Num(), b.Num())}, true
	}
	return nil, false
}

func isZero(x Expr) bool {
	v, ok := constVal(x)
	return ok && v.Sign() == 0
}

func isOne(x Expr) bool {
	v, ok := constVal(x)
	return ok && v.Cmp(big.NewRat(1, 1)) == 0
}
