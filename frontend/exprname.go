package frontend

// Names of values for traces: the Go expression an SSA value came from
// (in.Simple.Stock, authPayload.Username, c.MustGet("user")), so that a
// counterexample never shows an SSA register (t13).

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// maxExprDepth bounds the expression rebuilt for a name.
const maxExprDepth = 6

// exprName names v by the Go expression it came from: a local's name, a
// field or element reached from one, a call's result written as the call;
// v's SSA name when no such expression is known.
func (t *translator) exprName(f *frame, v ssa.Value) string {
	if s, ok := goExpr(f, v, 0); ok {
		return s
	}
	return t.nameOf(f, v)
}

// goExpr rebuilds the Go expression of v, if it has one a user wrote.
func goExpr(f *frame, v ssa.Value, depth int) (string, bool) {
	if depth > maxExprDepth {
		return "", false
	}
	if n, ok := f.names[v]; ok {
		return n, true
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		if x.Comment != "" && !strings.ContainsAny(x.Comment, " ()") && !syntheticAlloc(x) {
			return x.Comment, true
		}
	case *ssa.Parameter:
		return x.Name(), true
	case *ssa.FreeVar:
		return x.Name(), true
	case *ssa.Global:
		return x.Pkg.Pkg.Name() + "." + x.Name(), true
	case *ssa.Const:
		return constExpr(x)
	case *ssa.FieldAddr:
		return fieldExpr(f, x.X, derefType(x.X.Type()), x.Field, depth)
	case *ssa.Field:
		return fieldExpr(f, x.X, x.X.Type(), x.Field, depth)
	case *ssa.IndexAddr:
		return suffixExpr(f, x.X, "[i]", depth)
	case *ssa.Index:
		return suffixExpr(f, x.X, "[i]", depth)
	case *ssa.UnOp:
		return unOpExpr(f, x, depth)
	case *ssa.TypeAssert:
		return goExpr(f, x.X, depth+1)
	case *ssa.Extract:
		return goExpr(f, x.Tuple, depth+1)
	case *ssa.ChangeType:
		return goExpr(f, x.X, depth+1)
	case *ssa.Convert:
		return goExpr(f, x.X, depth+1)
	case *ssa.MakeInterface:
		return goExpr(f, x.X, depth+1)
	case *ssa.ChangeInterface:
		return goExpr(f, x.X, depth+1)
	case *ssa.Call:
		return callExpr(f, x.Common(), depth)
	}
	return "", false
}

// unOpExpr names *p (a load: the variable or field loaded, as Go reads
// it) and other unary expressions.
func unOpExpr(f *frame, x *ssa.UnOp, depth int) (string, bool) {
	s, ok := goExpr(f, x.X, depth+1)
	if !ok {
		return "", false
	}
	switch x.Op {
	case token.MUL:
		switch x.X.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Alloc, *ssa.Global, *ssa.FreeVar:
			return s, true // a variable, field or element read
		}
		return "*" + s, true
	case token.SUB, token.NOT, token.XOR:
		return x.Op.String() + s, true
	}
	return "", false
}

func fieldExpr(f *frame, x ssa.Value, typ types.Type, field, depth int) (string, bool) {
	st, ok := typ.Underlying().(*types.Struct)
	if !ok || field >= st.NumFields() {
		return "", false
	}
	return suffixExpr(f, x, "."+st.Field(field).Name(), depth)
}

func suffixExpr(f *frame, x ssa.Value, suffix string, depth int) (string, bool) {
	s, ok := goExpr(f, x, depth+1)
	if !ok {
		return "", false
	}
	return s + suffix, true
}

// callExpr writes a call as the source does: recv.Method(args) or
// pkg.Func(args), each argument by its expression or "…".
func callExpr(f *frame, c *ssa.CallCommon, depth int) (string, bool) {
	var fun string
	args := c.Args
	switch {
	case c.IsInvoke():
		recv, ok := goExpr(f, c.Value, depth+1)
		if !ok {
			return "", false
		}
		fun = recv + "." + c.Method.Name()
	case c.StaticCallee() != nil:
		fn := c.StaticCallee()
		if sig := fn.Signature; sig.Recv() != nil && len(args) > 0 {
			recv, ok := goExpr(f, args[0], depth+1)
			if !ok {
				return "", false
			}
			fun, args = recv+"."+fn.Name(), args[1:]
		} else if fn.Pkg != nil && fn.Parent() == nil {
			fun = fn.Pkg.Pkg.Name() + "." + fn.Name()
		} else {
			fun = fn.Name()
		}
	default:
		return "", false
	}
	parts := make([]string, len(args))
	for i, a := range args {
		s, ok := goExpr(f, a, depth+1)
		if !ok || len(s) > 40 {
			s = "…"
		}
		parts[i] = s
	}
	return fun + "(" + strings.Join(parts, ", ") + ")", true
}

// constExpr writes a constant argument: a string or number literal, nil.
func constExpr(c *ssa.Const) (string, bool) {
	if c.Value == nil {
		return "nil", true
	}
	switch c.Value.Kind() {
	case constant.String:
		return c.Value.ExactString(), true
	case constant.Int, constant.Float, constant.Bool:
		return c.Value.String(), true
	}
	return "", false
}

func derefType(typ types.Type) types.Type {
	if p, ok := typ.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return typ
}

// isStringType reports whether typ is a Go string type (its values are
// modelled by their codes, ir.StringCode).
func isStringType(typ types.Type) bool {
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// internalField reports whether fld is an unexported field of a type
// declared outside the analysed module (time.Time's wall, a
// sync.Mutex's sema): a detail traces leave out.
func (t *translator) internalField(fld *types.Var) bool {
	if fld.Exported() || fld.Pkg() == nil {
		return false
	}
	for p := range t.l.module {
		if p.Pkg == fld.Pkg() {
			return false
		}
	}
	return true
}

// markInternal marks the variables of v as internal (ir.Var.Internal).
func markInternal(v value) {
	if x, ok := v.expr.(*ir.Var); ok {
		x.Internal = true
	}
	for _, f := range v.fields {
		markInternal(f)
	}
	for _, e := range v.tuple {
		markInternal(e)
	}
}
