package witness

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// handleTypes are the database handle types the driver can supply.
type handleTypes struct {
	// byType maps a handle type's string to the driver expression for it.
	byType map[string]string
	// impls are the handle types in preference order, for interfaces.
	impls []handleImpl
}

type handleImpl struct {
	t    types.Type
	expr string
}

var handleExprs = []struct{ pkg, name, expr string }{
	{"database/sql", "DB", "h.DB"},
	{"github.com/jmoiron/sqlx", "DB", "h.X"},
	{"github.com/jackc/pgx/v5/pgxpool", "Pool", "h.Pool()"},
	{"github.com/jackc/pgx/v5", "Conn", "h.Conn()"},
}

// httpExprs are the driver expressions for a handler's request or
// context, built from the run's HTTP inputs.
var httpExprs = map[string]string{
	"*net/http.Request":                   "zzrt.Request(ctx, in)",
	"*github.com/gin-gonic/gin.Context":   "zzrt.GinContext(ctx, in)",
	"github.com/labstack/echo/v4.Context": "zzrt.EchoContext(ctx, in)",
	"*github.com/gofiber/fiber/v2.Ctx":    "zzrt.FiberCtx(ctx, in)",
}

// txExprs are the driver expressions for an open transaction: one begun
// on the database before the call, committed after it (as a caller that
// runs the entry inside its own transaction does).
var txExprs = map[string]string{
	"*database/sql.Tx":            "h.Tx(ctx)",
	"*github.com/jmoiron/sqlx.Tx": "h.Txx(ctx)",
	"github.com/jackc/pgx/v5.Tx":  "h.PgxTx(ctx)",
}

func lookupHandles(byPath map[string]*packages.Package) (*handleTypes, error) {
	hs := &handleTypes{byType: map[string]string{}}
	for _, h := range handleExprs {
		hs.byType["*"+h.pkg+"."+h.name] = h.expr
		p := byPath[h.pkg]
		if p == nil || p.Types == nil || len(p.Errors) > 0 {
			continue // (a module that does not require the library)
		}
		tn, ok := p.Types.Scope().Lookup(h.name).(*types.TypeName)
		if !ok {
			return nil, fmt.Errorf("%s has no type %s", h.pkg, h.name)
		}
		hs.impls = append(hs.impls, handleImpl{types.NewPointer(tn.Type()), h.expr})
	}
	return hs, nil
}

// valueGen builds the Go expression for a value of a type from inputs.
type valueGen struct {
	g    *fileGen
	spec *EntrySpec
}

const maxDepth = 4

// expr returns a Go expression of type t read from the inputs under meta
// (a static path such as "req.Qty"; slice elements are "ids[]").
func (v *valueGen) expr(t types.Type, meta string, depth int) (string, error) {
	return v.exprAt(t, meta, strconv.Quote(meta), depth)
}

// exprAt is expr with the path as a Go expression pathExpr (dynamic inside
// slices).
func (v *valueGen) exprAt(t types.Type, meta, pathExpr string, depth int) (string, error) {
	if depth > maxDepth {
		return v.zero(t, meta, "nested too deep"), nil
	}
	ts := t.String()
	if e, ok := v.g.hs.byType[ts]; ok {
		return e, nil
	}
	switch ts {
	case "context.Context":
		return "ctx", nil
	case "github.com/shopspring/decimal.Decimal":
		v.input(meta, KindDecimal)
		return "in.Decimal(" + pathExpr + ")", nil
	case "*github.com/shopspring/decimal.Decimal":
		v.input(meta, KindDecimal)
		return "zzrt.Ptr(in.Decimal(" + pathExpr + "))", nil
	case "time.Time":
		// The counterexample's timestamp (an input the trace lists);
		// now when the run has none.
		v.input(meta, KindTime)
		return "in.Time(" + pathExpr + ")", nil
	case "*net/http.Request", "*github.com/gin-gonic/gin.Context", "github.com/labstack/echo/v4.Context", "*github.com/gofiber/fiber/v2.Ctx":
		v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) is a POST request built from the run's path, query, form and JSON body values", meta, ts))
		v.spec.HTTP = true
		return httpExprs[ts], nil
	case "*github.com/go-playground/validator/v10.Validate":
		return v.g.importAs("github.com/go-playground/validator/v10") + ".New()", nil
	case "net/http.ResponseWriter":
		return v.g.importAs("net/http/httptest") + ".NewRecorder()", nil
	}
	if e, ok := txExprs[ts]; ok {
		v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) is a transaction begun before the call and committed after it", meta, ts))
		return e, nil
	}
	tstr := v.g.typeString(t)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			v.input(meta, KindBool)
			return tstr + "(in.Bool(" + pathExpr + "))", nil
		case u.Info()&types.IsUnsigned != 0:
			v.input(meta, KindUint)
			return tstr + "(in.Uint(" + pathExpr + "))", nil
		case u.Info()&types.IsInteger != 0:
			v.input(meta, KindInt)
			return tstr + "(in.Int(" + pathExpr + "))", nil
		case u.Info()&types.IsFloat != 0:
			v.input(meta, KindFloat)
			return tstr + "(in.Float(" + pathExpr + "))", nil
		case u.Info()&types.IsString != 0:
			v.input(meta, KindString)
			return tstr + "(in.String(" + pathExpr + "))", nil
		}
		return v.zero(t, meta, "a "+u.String()), nil
	case *types.Struct:
		if v.hiddenFields(t, u) || holdsStatement(u) {
			return v.foreignValue(t, t, u, meta, pathExpr, depth)
		}
		if call, err := v.wiredValue(t, u, meta, depth); call != "" || err != nil {
			return call, err
		}
		return v.structLit(t, u, tstr, meta, pathExpr, depth)
	case *types.Pointer:
		if st, ok := u.Elem().Underlying().(*types.Struct); ok {
			if v.hiddenFields(u.Elem(), st) || holdsStatement(st) {
				return v.foreignValue(t, u.Elem(), st, meta, pathExpr, depth)
			}
			if call, err := v.wiredValue(t, st, meta, depth); call != "" || err != nil {
				return call, err
			}
			lit, err := v.structLit(u.Elem(), st, v.g.typeString(u.Elem()), meta, pathExpr, depth)
			if err != nil {
				return "", err
			}
			return "&" + lit, nil
		}
		e, err := v.exprAt(u.Elem(), meta, pathExpr, depth+1)
		if err != nil {
			return "", err
		}
		// nil where the counterexample's pointer is (its input
		// "p != nil" = false: an entry's pointer argument); a random run
		// draws it too.
		v.input(meta+" != nil", KindBool)
		return "zzrt.PtrOrNil(in, " + pathExpr + ", " + e + ")", nil
	case *types.Slice:
		elemT := v.g.typeString(u.Elem())
		e, err := v.exprAt(u.Elem(), meta+"[]", "p", depth+1)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s(zzrt.Slice(in, %s, func(p string) %s { return %s }))", tstr, pathExpr, elemT, e), nil
	case *types.Signature:
		// A function field (an injected clock, a hook): a function that
		// returns zero values, so that a call through it runs instead of
		// panicking on nil.
		v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) is a function returning zero values", meta, t))
		if _, named := types.Unalias(t).(*types.Named); named {
			// A function adapter type (SpenderFunc): a conversion.
			return tstr + "(" + v.stubFunc(u) + ")", nil
		}
		return v.stubFunc(u), nil
	case *types.Interface:
		for _, h := range v.g.hs.impls {
			if types.Implements(h.t, u) {
				return h.expr, nil
			}
		}
		if impl := v.implementation(u); impl != nil {
			v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) filled with a %s", meta, t, v.g.typeString(impl)))
			return v.exprAt(impl, meta, pathExpr, depth+1)
		}
		return v.zero(t, meta, "an interface no database handle implements"), nil
	}
	return v.zero(t, meta, "a "+tstr), nil
}

func (v *valueGen) structLit(t types.Type, st *types.Struct, tstr, meta, pathExpr string, depth int) (string, error) {
	lit := tstr + "{"
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != v.g.pkg {
			continue
		}
		if f.Name() == "_" {
			continue
		}
		e, err := v.exprAt(f.Type(), meta+"."+f.Name(), pathExpr+"+"+strconv.Quote("."+f.Name()), depth+1)
		if err != nil {
			return "", fmt.Errorf("field %s: %w", f.Name(), err)
		}
		if e == "" {
			continue
		}
		lit += f.Name() + ": " + e + ", "
	}
	return lit + "}", nil
}

// zero leaves a value at its zero value and records the approximation;
// the empty expression means "omit" (fields).
func (v *valueGen) zero(t types.Type, meta, why string) string {
	v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) left at its zero value: %s", meta, t, why))
	return "*new(" + v.g.typeString(t) + ")"
}

func (v *valueGen) input(meta string, k InputKind) {
	for _, in := range v.spec.Inputs {
		if in.Path == meta {
			return
		}
	}
	v.spec.Inputs = append(v.spec.Inputs, Input{Path: meta, Kind: k})
}

// implementation is a type of the entry's package that implements iface
// (T or *T, not a mock), or nil. A type that is no wrapper of iface (no
// field of iface's type) comes first: a wrapper (Audited{Inner Debiter})
// filled with a wrapper again ends nested too deep with a nil Inner, and
// the call panicked (an independent tester's dispatch.Audited.Debit).
func (v *valueGen) implementation(iface *types.Interface) types.Type {
	if iface.NumMethods() == 0 {
		return nil
	}
	var wrapper types.Type
	scope := v.g.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
			continue
		}
		low := strings.ToLower(name)
		if strings.Contains(low, "mock") || strings.Contains(low, "fake") || strings.Contains(low, "stub") {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			switch {
			case !types.Implements(t, iface):
			case !wraps(tn.Type(), iface):
				return t
			case wrapper == nil:
				wrapper = t
			}
		}
	}
	return wrapper
}

// wraps reports whether t is a struct with a field of interface iface.
func wraps(t types.Type, iface *types.Interface) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if types.Identical(st.Field(i).Type().Underlying(), iface) {
			return true
		}
	}
	return false
}

// stubFunc returns a function literal of signature sig that returns the
// zero values of its results.
func (v *valueGen) stubFunc(sig *types.Signature) string {
	var params, results, zeros []string
	for i := 0; i < sig.Params().Len(); i++ {
		ts := v.g.typeString(sig.Params().At(i).Type())
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts = "..." + v.g.typeString(sig.Params().At(i).Type().(*types.Slice).Elem())
		}
		params = append(params, "_ "+ts)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		ts := v.g.typeString(sig.Results().At(i).Type())
		results = append(results, ts)
		zeros = append(zeros, "*new("+ts+")")
	}
	lit := "func(" + strings.Join(params, ", ") + ")"
	if len(results) > 0 {
		lit += " (" + strings.Join(results, ", ") + ") { return " + strings.Join(zeros, ", ") + " }"
	} else {
		lit += " {}"
	}
	return lit
}
