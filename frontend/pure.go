package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Library functions whose result depends only on their arguments: two
// calls with equal arguments give equal results in one run. A handler
// that validates chi.URLParam(r, "amount") in a helper and reads it again
// in its body checks the value it then uses.
//
// pureFuncs lists them by their go/ssa name (fn.String()). Request
// accessors read the request, which they take as an argument: they are
// pure as long as the handler does not change the request between two
// calls, which is assumed (and stated, see requestAccessor). Random
// numbers, clocks and readers are not in the table: each call is a new
// value.
var pureFuncs = map[string]bool{
	"strconv.Atoi":       true,
	"strconv.ParseInt":   true,
	"strconv.ParseUint":  true,
	"strconv.ParseFloat": true,
	"strconv.ParseBool":  true,
	"strconv.Itoa":       true,
	"strconv.FormatInt":  true,
	"strconv.Quote":      true,
	"strings.TrimSpace":  true,
	"strings.ToLower":    true,
	"strings.ToUpper":    true,
	"strings.Trim":       true,
	"strings.TrimPrefix": true,
	"strings.TrimSuffix": true,

	"(*net/http.Request).FormValue":     true,
	"(*net/http.Request).PostFormValue": true,
	"(*net/http.Request).PathValue":     true,
	"(*net/url.URL).Query":              true,
	"(net/url.Values).Get":              true,
	"(net/url.Values).Has":              true,
	"(net/http.Header).Get":             true,

	"github.com/go-chi/chi/v5.URLParam": true,
	"github.com/go-chi/chi.URLParam":    true,
	"github.com/gorilla/mux.Vars":       true,

	"(*github.com/gin-gonic/gin.Context).Param":        true,
	"(*github.com/gin-gonic/gin.Context).Query":        true,
	"(*github.com/gin-gonic/gin.Context).DefaultQuery": true,
	"(*github.com/gin-gonic/gin.Context).PostForm":     true,
	"(*github.com/gin-gonic/gin.Context).GetHeader":    true,

	"(*github.com/gofiber/fiber/v2.Ctx).Params":    true,
	"(*github.com/gofiber/fiber/v2.Ctx).Query":     true,
	"(*github.com/gofiber/fiber/v2.Ctx).FormValue": true,
	"(*github.com/gofiber/fiber/v2.Ctx).Get":       true,
}

// requestAccessor reports whether pure function name reads an object it
// is given (a request, a URL) rather than only scalars.
func requestAccessor(name string) bool {
	return !strings.HasPrefix(name, "strconv.") && !strings.HasPrefix(name, "strings.")
}

// A call of a pure function whose arguments are all fixed for the run —
// constants, objects (the request), the entry's parameters, or results of
// such calls — has a result fixed for the run too: an input of the entry,
// one variable per function and arguments, named after the call
// (FormValue("amount")). Every call with the same arguments is that
// variable, so a check on one call holds for the next. Calls with other
// arguments get fresh results, as every call outside the module does.

// pureKey identifies a pure call: the function and its arguments.
type pureKey struct {
	fn   string
	args string
}

// pureCall models a call of a function of pureFuncs. ok is false when an
// argument is not fixed for the run (the call is then an ordinary
// external call).
func (t *translator) pureCall(fn *ssa.Function, args []value, results *types.Tuple) (value, bool) {
	return t.pureResult(fn.String(), fn.Name(), nil, args, results)
}

// pureMethods are the interface methods of pureFuncs' kind, by
// types.Func.FullName: echo's request accessors. The receiver is an
// interface value the model does not track; within one run it is taken to
// be the one request context (an assumption, stated).
var pureMethods = map[string]bool{
	"(github.com/labstack/echo/v4.Context).Param":      true,
	"(github.com/labstack/echo/v4.Context).QueryParam": true,
	"(github.com/labstack/echo/v4.Context).FormValue":  true,
}

// pureInvoke models a call of a method of pureMethods.
func (t *translator) pureInvoke(m *types.Func, recvType types.Type, recv value, args []value, results *types.Tuple) (value, bool) {
	var keys []string
	if recv.obj == nil && recv.expr == nil {
		keys = []string{"t" + types.TypeString(recvType, nil)}
	}
	return t.pureResult(m.FullName(), m.Name(), keys, append([]value{recv}, args...), results)
}

// pureResult returns the result of pure function name (short: its name
// in traces) on args, fixed for the run; keys are extra parts of the key
// (an opaque receiver's type, which then stands for it).
func (t *translator) pureResult(name, short string, keys []string, args []value, results *types.Tuple) (value, bool) {
	var texts []string
	for i, a := range args {
		if i == 0 && len(keys) > 0 && a.obj == nil && a.expr == nil {
			texts = append(texts, "_")
			continue // (the opaque receiver, keyed by its type)
		}
		switch {
		case a.strKnown:
			keys = append(keys, "s"+a.str)
			texts = append(texts, fmt.Sprintf("%q", a.str))
		case a.expr != nil:
			switch x := a.expr.(type) {
			case *ir.IntConst, ir.BoolConst, *ir.RealConst:
				keys = append(keys, "c"+x.String())
				texts = append(texts, x.String())
			case *ir.Var:
				if !t.runConst[x] && !t.isParam(x) {
					return value{}, false
				}
				keys = append(keys, fmt.Sprintf("v%p", x))
				texts = append(texts, x.Name)
			default:
				return value{}, false
			}
		case a.obj != nil:
			keys = append(keys, fmt.Sprintf("o%p", a.obj))
			texts = append(texts, "_")
		default:
			return value{}, false
		}
	}
	k := pureKey{fn: name, args: strings.Join(keys, "|")}
	if v, ok := t.pure[k]; ok {
		return v, true
	}
	label := short + "(" + strings.Join(texts, ", ") + ")"
	var out value
	if results.Len() == 1 {
		out = t.runInput(label, results.At(0).Type())
	} else {
		ts := make([]value, results.Len())
		for i := range ts {
			ts[i] = t.runInput(fmt.Sprintf("%s.%d", label, i), results.At(i).Type())
		}
		out = value{tuple: ts}
	}
	if t.pure == nil {
		t.pure = map[pureKey]value{}
	}
	t.pure[k] = out
	t.markHTTP(name, args, out)
	for _, p := range append([]value{out}, out.tuple...) {
		if p.obj != nil && p.obj.kind == objSlice {
			if t.runMaps == nil {
				t.runMaps = map[*object]bool{}
			}
			t.runMaps[p.obj] = true // (a map or slice fixed for the run: mux.Vars)
		}
	}
	if requestAccessor(name) && !t.pureNoted[name] {
		if t.pureNoted == nil {
			t.pureNoted = map[string]bool{}
		}
		t.pureNoted[name] = true
		file, line := t.l.position(t.pos)
		what := "the handler does not change the request between calls"
		if len(keys) > 0 {
			what += ", and its receiver is the same request throughout the run"
		}
		t.p.Assume(fmt.Sprintf("%s gives the same result for the same arguments within one run: %s (%s:%d)", name, what, file, line))
	}
	return out, true
}

// runInput is a value fixed for the run: an input of the entry (arbitrary
// on entry, never assigned), recorded as such so that pure calls on it are
// fixed too.
func (t *translator) runInput(name string, typ types.Type) value {
	v := t.input(name, typ, 1)
	if x, ok := v.expr.(*ir.Var); ok {
		if t.runConst == nil {
			t.runConst = map[*ir.Var]bool{}
		}
		t.runConst[x] = true
	}
	return v
}

// isParam reports whether x is a parameter of the entry (never assigned).
func (t *translator) isParam(x *ir.Var) bool {
	for _, v := range t.p.Inputs {
		if v == x {
			return true
		}
	}
	return false
}

// pureLookup models m[key] on a map a pure call returned (mux.Vars(r)):
// with a key fixed for the run, the element is fixed for the run too.
func (t *translator) pureLookup(f *frame, l *ssa.Lookup) (value, bool) {
	m := t.val(f, l.X)
	if m.obj == nil || !t.runMaps[m.obj] {
		return value{}, false
	}
	key := t.val(f, l.Index)
	var k string
	switch {
	case key.strKnown:
		k = fmt.Sprintf("%q", key.str)
	case key.expr != nil:
		x, ok := key.expr.(*ir.Var)
		if !ok || (!t.runConst[x] && !t.isParam(x)) {
			return value{}, false
		}
		k = x.Name
	default:
		return value{}, false
	}
	pk := pureKey{fn: fmt.Sprintf("[]%p", m.obj), args: k}
	if v, ok := t.pure[pk]; ok {
		return v, true
	}
	label := fmt.Sprintf("%s[%s]", t.nameOf(f, l.X), k)
	if fn, ok := l.X.(*ssa.Call); ok && fn.Call.StaticCallee() != nil {
		label = fmt.Sprintf("%s(_)[%s]", fn.Call.StaticCallee().Name(), k)
	}
	var out value
	if tup, ok := l.Type().(*types.Tuple); ok {
		ts := make([]value, tup.Len())
		for i := range ts {
			ts[i] = t.runInput(fmt.Sprintf("%s.%d", label, i), tup.At(i).Type())
		}
		out = value{tuple: ts}
	} else {
		out = t.runInput(label, l.Type())
	}
	if fn, ok := l.X.(*ssa.Call); ok && key.strKnown && fn.Call.StaticCallee() != nil && isMuxVars(fn.Call.StaticCallee().String()) {
		t.markHTTPValue(out, &ir.HTTPSource{Kind: ir.HTTPPath, Name: key.str})
	}
	t.pure[pk] = out
	return out, true
}

// withoutEmptyVariadic drops the variadic argument of a call that passes
// none (go/ssa's nil slice): fiber's c.Params("id") is
// Params("id", nil...), a pure call on its key.
func withoutEmptyVariadic(fn *ssa.Function, c *ssa.CallCommon, args []value) []value {
	if !fn.Signature.Variadic() || len(c.Args) == 0 || len(args) != len(c.Args) {
		return args
	}
	if k, ok := c.Args[len(c.Args)-1].(*ssa.Const); ok && k.IsNil() {
		return args[:len(args)-1]
	}
	return args
}
