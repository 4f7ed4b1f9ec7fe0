package report

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Go's integer arithmetic wraps around (frontend/intwrap.go), and a
// counterexample may rest on it: eur := amt * 9200 / 10000 is negative
// for a positive amt, booked+n > capacity false for booked near
// MaxInt64. The step's values alone (eur = -922337203685477) read as an
// error of the tool (an independent tester, adv18); wrapNote says, on
// the step, which operation wrapped and from what.
//
// The frontend writes a wrapping operation s = x op y of a type of w bits
// as
//
//	ite(s > hi, s - 2^w, ite(s < lo, s + 2^w, s))   (+, - signed)
//	ite(s > hi, s - 2^w, s), ite(s < 0, s + 2^w, s)  (+, - unsigned)
//	x*y - k·2^w with k a fresh "wrap.T" variable    (*)
//
// and wrapNote recognises these shapes in a step's statement.

// wrapVarPrefix begins the name of the multiple of 2^w a wrapping
// product subtracts (frontend: "wrap." and the Go type's name).
const wrapVarPrefix = "wrap."

// wrapping is one operation of a step that wrapped around on the path.
type wrapping struct {
	op        *ir.Binary // the mathematical operation s
	typ       string     // the Go type ("int64"), "" if not known
	exact, to *big.Int   // s's mathematical value and Go's
}

// wrapNote is the note of step i: the operations of its statement that
// wrapped around in the model, "" if none.
func (b *traceBuilder) wrapNote(i int) string {
	st := b.pf.Steps[i]
	val := b.valueBefore(i)
	var found []wrapping
	for _, e := range stmtExprs(st.Edge.Stmt) {
		ir.Inspect(e, func(x ir.Expr) {
			if w, ok := wrapped(x, val); ok {
				found = append(found, w)
			}
		})
	}
	var parts []string
	for _, w := range found {
		// (A value copied into later statements wraps once: noted
		// where it is first computed.)
		if text := w.String(val); !b.wraps[text] {
			b.wraps[text] = true
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "; ")
}

// String says what wrapped: "9223372036854775798 + 10 = 9223372036854775808
// wraps around to -9223372036854775808 (int64 overflow)".
func (w wrapping) String(val func(*ir.Var) (ir.Value, bool)) string {
	typ := w.typ
	if typ == "" {
		typ = "integer"
	}
	operands := ""
	x, okX := evalInt(w.op.X, val)
	y, okY := evalInt(w.op.Y, val)
	if okX && okY {
		operands = fmt.Sprintf("%s %s %s = ", x, w.op.Op, y)
	}
	return fmt.Sprintf("%s%s wraps around to %s (%s overflow)", operands, w.exact, w.to, typ)
}

// valueBefore values the program variables as they are before step i.
func (b *traceBuilder) valueBefore(i int) func(*ir.Var) (ir.Value, bool) {
	before := b.pf.Before(i)
	return func(v *ir.Var) (ir.Value, bool) {
		if s, ok := before[v]; ok {
			return b.m.Value(s)
		}
		return b.m.Value(v)
	}
}

// stmtExprs are the expressions a statement computes.
func stmtExprs(s ir.Stmt) []ir.Expr {
	switch s := s.(type) {
	case *ir.Assign:
		return s.Rhs
	case *ir.Assume:
		return []ir.Expr{s.Cond}
	}
	return nil
}

// wrapped reports whether x is a wrapping operation (see above) that
// wraps around under val, and which.
func wrapped(x ir.Expr, val func(*ir.Var) (ir.Value, bool)) (wrapping, bool) {
	switch x := x.(type) {
	case *ir.Ite:
		return wrappedSum(x, val)
	case *ir.Binary:
		return wrappedProduct(x, val)
	}
	return wrapping{}, false
}

// wrappedSum recognises ite(s > hi, s - 2^w, …) and ite(s < lo, s + 2^w,
// s) and evaluates whether the path takes the wrapping branch.
func wrappedSum(x *ir.Ite, val func(*ir.Var) (ir.Value, bool)) (wrapping, bool) {
	c, ok := x.Cond.(*ir.Binary)
	if !ok || c.Op != ir.OpGt && c.Op != ir.OpLt {
		return wrapping{}, false
	}
	s, ok := c.X.(*ir.Binary)
	bound, okB := c.Y.(*ir.IntConst)
	if !ok || !okB || s.Op != ir.OpAdd && s.Op != ir.OpSub {
		return wrapping{}, false
	}
	then, ok := x.Then.(*ir.Binary)
	if !ok || !ir.Equal(then.X, s) {
		return wrapping{}, false
	}
	mod, ok := then.Y.(*ir.IntConst)
	if !ok || (c.Op == ir.OpGt) != (then.Op == ir.OpSub) || (c.Op == ir.OpLt) != (then.Op == ir.OpAdd) {
		return wrapping{}, false
	}
	typ, ok := rangeType(c.Op, bound.V, mod.V)
	if !ok {
		return wrapping{}, false
	}
	taken, err := ir.Eval(c, val)
	if err != nil || !taken.B {
		return wrapping{}, false
	}
	exact, okS := evalInt(s, val)
	to, okT := evalInt(x.Then, val)
	if !okS || !okT {
		return wrapping{}, false
	}
	return wrapping{op: s, typ: typ, exact: exact, to: to}, true
}

// rangeType names the integer type whose range a wrapping sum tests
// (s > hi or s < lo) and whose 2^w it adds or subtracts.
func rangeType(op ir.Op, bound, mod *big.Int) (string, bool) {
	w := mod.BitLen() - 1
	if mod.Sign() <= 0 || new(big.Int).Lsh(big.NewInt(1), uint(w)).Cmp(mod) != 0 || w < 8 {
		return "", false
	}
	half := new(big.Int).Rsh(mod, 1)
	hiSigned := new(big.Int).Sub(half, big.NewInt(1))
	hiUnsigned := new(big.Int).Sub(mod, big.NewInt(1))
	signed, unsigned := fmt.Sprintf("int%d", w), fmt.Sprintf("uint%d", w)
	switch {
	case op == ir.OpGt && bound.Cmp(hiSigned) == 0:
		return signed, true
	case op == ir.OpGt && bound.Cmp(hiUnsigned) == 0:
		return unsigned, true
	case op == ir.OpLt && bound.Cmp(new(big.Int).Neg(half)) == 0:
		return signed, true
	case op == ir.OpLt && bound.Sign() == 0:
		return unsigned, true
	}
	return "", false
}

// wrappedProduct recognises x*y - k·2^w with k a wrap variable and
// reports whether k is not 0 under val.
func wrappedProduct(x *ir.Binary, val func(*ir.Var) (ir.Value, bool)) (wrapping, bool) {
	if x.Op != ir.OpSub {
		return wrapping{}, false
	}
	prod, ok := x.X.(*ir.Binary)
	sub, okSub := x.Y.(*ir.Binary)
	if !ok || !okSub || prod.Op != ir.OpMul || sub.Op != ir.OpMul {
		return wrapping{}, false
	}
	k, ok := sub.X.(*ir.Var)
	if _, okM := sub.Y.(*ir.IntConst); !ok || !okM || !strings.HasPrefix(k.Name, wrapVarPrefix) {
		return wrapping{}, false
	}
	kv, ok := evalInt(k, val)
	if !ok || kv.Sign() == 0 {
		return wrapping{}, false
	}
	exact, okE := evalInt(prod, val)
	to, okT := evalInt(x, val)
	if !okE || !okT {
		return wrapping{}, false
	}
	typ, _, _ := strings.Cut(strings.TrimPrefix(k.Name, wrapVarPrefix), "#")
	return wrapping{op: prod, typ: typ, exact: exact, to: to}, true
}

// evalInt is e's integer value under val.
func evalInt(e ir.Expr, val func(*ir.Var) (ir.Value, bool)) (*big.Int, bool) {
	v, err := ir.Eval(e, val)
	if err != nil || v.Sort != ir.Int || v.R == nil || !v.R.IsInt() {
		return nil, false
	}
	return v.R.Num(), true
}
