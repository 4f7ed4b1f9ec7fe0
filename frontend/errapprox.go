package frontend

import (
	"fmt"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Approximated error identity. Where the model does not decide which
// error a value is (one a parameter, a field, outside code or a database
// call hands over, or a join of paths it does not follow apart), a test
// of that identity (err == S, errors.Is, errors.As) and the nil-ness of
// an errors.Join whose arguments it does not see are arbitrary booleans.
// Such a boolean is an approximation (ir.Var.Approx): a counterexample
// whose path depends on it is UNKNOWN naming the test and its file:line,
// never UNSAFE (adv15 F1, F2: errors.Is(err, ErrInsufficient) taken true
// where err was ErrInvalid). A test of a nil error stays exactly false:
// only the non-nil side reads the approximation.

// approxWhereNonNil returns a boolean that is false where nonNil is false
// and an arbitrary value, marked why, where it is true (everywhere when
// nonNil is nil).
func (t *translator) approxWhereNonNil(name string, nonNil ir.Expr, why string) ir.Expr {
	a := t.p.NewVar(name, ir.Bool, ir.Local)
	a.Approx = why
	if nonNil == nil {
		t.emit(&ir.Havoc{Vars: []*ir.Var{a}, Info: t.info(ir.KindCall, "")})
		return a
	}
	r := t.p.NewVar(name, ir.Bool, ir.Local)
	start, join := t.cur, t.p.NewLoc()
	t.emit(&ir.Assume{Cond: nonNil, Info: t.info(ir.KindModel, "")})
	t.emit(&ir.Havoc{Vars: []*ir.Var{a}, Info: t.info(ir.KindCall, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{r}, Rhs: []ir.Expr{a}, Info: t.info(ir.KindModel, "")})
	t.cur = start
	t.emit(&ir.Assume{Cond: ir.Not(nonNil), Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{r}, Rhs: []ir.Expr{ir.False}, Info: t.info(ir.KindModel, "")})
	return r
}

// errTestWhy is the Approx note of an error test the model does not
// decide: what it is and where.
func (t *translator) errTestWhy(test string) string {
	return fmt.Sprintf("the outcome of %s at %s, which the model does not decide (which error the value is, is not tracked there)", test, t.posString(t.pos))
}

// errCallName names a call of function name of error package pkgPath as
// the source writes it (errors.Is, xerrors.As).
func errCallName(pkgPath, name string) string {
	return path.Base(pkgPath) + "." + name
}

// callText writes call c of the function named name as the source does:
// name(arg, …) with the arguments' Go expressions.
func (t *translator) callText(f *frame, c *ssa.CallCommon, name string) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = t.exprName(f, a)
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// libraryErrorTarget reports whether the last argument of call c (the
// target of errors.As, a *T) points to a type declared outside the
// module: a driver's error type, which a database error may be.
func (t *translator) libraryErrorTarget(c *ssa.CallCommon) bool {
	if len(c.Args) != 2 {
		return false
	}
	typ := c.Args[1].Type()
	if mi, ok := c.Args[1].(*ssa.MakeInterface); ok {
		typ = mi.X.Type() // (target is an any)
	}
	for {
		p, ok := typ.(*types.Pointer)
		if !ok {
			break
		}
		typ = p.Elem()
	}
	n, ok := typ.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	for p := range t.l.module {
		if p.Pkg.Path() == n.Obj().Pkg().Path() {
			return false
		}
	}
	return true
}
