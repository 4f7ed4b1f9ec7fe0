package frontend

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// stringBinop translates the operators on strings whose meaning is not
// that of their codes: concatenation, and ordering; false for == and !=
// of strings whose text is not known (their codes compare).
func (t *translator) stringBinop(f *frame, i *ssa.BinOp, x, y value) (value, bool) {
	if i.Op == token.ADD {
		if x.strKnown && y.strKnown {
			s := x.str + y.str
			return value{expr: ir.StringCode(s), str: s, strKnown: true}, true
		}
		if texts, conds, ok := product([]value{x, y}, func(ss []string) string { return strings.Join(ss, "") }); ok {
			return t.strChoice(f.prefix+t.nameOf(f, i), texts, conds), true
		}
		v := t.fresh(f.prefix+i.Name(), i.Type())
		t.noteOpaqueText(v, "a concatenation of strings at "+t.posString(i.Pos()))
		t.notePrefixedDecimal(f, v, i, x)
		return v, true
	}
	if x.strKnown && y.strKnown {
		// Two known strings: Go's byte-wise order (codes order only
		// strings of one shape, see ir.StringCode).
		if r, ok := compareStrings(i.Op, x.str, y.str); ok {
			return value{expr: ir.BoolConst(r)}, true
		}
	}
	if i.Op != token.EQL && i.Op != token.NEQ {
		// Go orders strings byte-wise ("9" > "16"); the codes of strings
		// whose text is not known order nothing: an arbitrary outcome,
		// marked so that a counterexample that needs it is UNKNOWN.
		v := t.fresh(f.prefix+i.Name(), i.Type())
		markValueApprox(v, fmt.Sprintf("the order of two strings (%s) at %s", i.Op, t.posString(i.Pos())))
		return v, true
	}
	return value{}, false
}

// nilCompare decides v == nil and v != nil for a value whose nil-ness
// the model knows (recover's result).
func nilCompare(i *ssa.BinOp, x, y value) (value, bool) {
	if i.Op != token.EQL && i.Op != token.NEQ {
		return value{}, false
	}
	var nn ir.Expr
	switch {
	case isNilConst(i.Y) && x.nonNil != nil:
		nn = x.nonNil
	case isNilConst(i.X) && y.nonNil != nil:
		nn = y.nonNil
	case isHandleType(i.X.Type()) && (isNilConst(i.Y) && isNilObject(x) || isNilConst(i.X) && isNilObject(y)):
		// Known to be nil: exact, so the block it rules out is not
		// translated (deadblocks.go), as for a Go constant.
		return value{expr: ir.BoolConst(i.Op == token.EQL), goConst: true}, true
	default:
		return value{}, false
	}
	if i.Op == token.EQL {
		return value{expr: ir.Not(nn)}, true
	}
	return value{expr: nn}, true
}

// isNilObject reports whether v is the nil pointer or handle (a stored
// nil, a handle field a composite literal leaves out: adv18, a repository
// built as &Repo{pool: pool} ran its r.tx branch, on an untraced handle).
func isNilObject(v value) bool { return v.obj != nil && v.obj.kind == objNil && v.nonNil == nil }

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value == nil
}

// errCompare models err == nil / err != nil exactly and err == sentinel
// as an arbitrary truth value that implies err is non-nil.
func (t *translator) errCompare(f *frame, i *ssa.BinOp, x, y value) value {
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.Value == nil
	}
	var e ir.Expr
	switch {
	case isNil(i.Y) && x.expr != nil:
		e = x.expr
	case isNil(i.X) && y.expr != nil:
		e = y.expr
	}
	if e != nil {
		if i.Op == token.EQL {
			return value{expr: ir.Not(e)}
		}
		return value{expr: e}
	}
	if v, ok := t.errCompareSentinel(i, x, y); ok {
		return v
	}
	// err == other: two nil errors are equal, a nil and a non-nil one
	// are not; which non-nil errors are equal is not tracked (a marked
	// approximation, errapprox.go). Where either side's nil-ness is not
	// known, the whole test is one. (It was false wherever err was nil,
	// whatever other was: a nil last error made err == last false.)
	isBool := func(v value) bool { return v.expr != nil && v.expr.Sort() == ir.Bool }
	test := t.exprName(f, i.X) + " == " + t.exprName(f, i.Y)
	var b ir.Expr
	if isBool(x) && isBool(y) {
		both := t.approxWhereNonNil(f.prefix+i.Name(), ir.And(x.expr, y.expr), t.errTestWhy(test))
		b = ir.Or(ir.And(ir.Not(x.expr), ir.Not(y.expr)), both)
	} else {
		b = t.approxWhereNonNil(f.prefix+i.Name(), nil, t.errTestWhy(test))
	}
	if i.Op == token.NEQ {
		return value{expr: ir.Not(b)}
	}
	return value{expr: b}
}
