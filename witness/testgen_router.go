package witness

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"net/http"
	"sort"
	"strings"
)

// A web framework whose handlers an emitted test serves through the
// framework's own router.
type framework struct {
	name    string // "Gin", "Echo": the test's zzrtServe<name>
	pkg     string // the framework's import path
	context string // the driver's expression for the handler's context
	param   string // the handler's context type in the test
}

var frameworks = []framework{
	{"Gin", "github.com/gin-gonic/gin", "zzrtGinContext(ctx, in)", "*zzgin.Context"},
	{"Echo", "github.com/labstack/echo/v4", "zzrtEchoContext(ctx, in)", "zzecho.Context"},
}

// routeVerbs are the router methods that register a handler for one HTTP
// method (gin's and echo's alike); Any registers it for all.
var routeVerbs = map[string]string{
	"GET": http.MethodGet, "POST": http.MethodPost, "PUT": http.MethodPut, "PATCH": http.MethodPatch,
	"DELETE": http.MethodDelete, "HEAD": http.MethodHead, "OPTIONS": http.MethodOptions, "Any": http.MethodPost,
}

// routedCall rewrites the call of a gin or echo handler (call, with the
// test's names) so that the test serves its request through a new router
// of the framework: the handler is registered for the method and route
// the program registers fn under (the group's prefix left out: the test's
// router has no groups), or, when the program registers it nowhere the
// package shows or under a route without the counterexample's path
// parameters, for POST on a route made of those parameters. call is
// unchanged for other entries.
func (g *fileGen) routedCall(call string, fn *types.Func, in map[string]string) string {
	for _, fw := range frameworks {
		if !strings.Contains(call, fw.context) {
			continue
		}
		var params []string
		for k := range in {
			if p, ok := strings.CutPrefix(k, "$http.path."); ok {
				params = append(params, p)
			}
		}
		sort.Strings(params)
		method, route, ok := g.frameworkRoute(fw, fn)
		if !ok || !routeHas(route, params) {
			method, route = http.MethodPost, syntheticRoute(params)
		}
		inner := strings.ReplaceAll(call, fw.context, "zzc")
		return fmt.Sprintf("\t\treturn zzrtServe%s(ctx, in, %q, %q, func(zzc %s) error {\n%s\t\t})\n", fw.name, method, route, fw.param, inner)
	}
	return call
}

// frameworkRoute is the method and route of the first registration of fn
// with a router of fw in the package: `r.POST("/withdrawals", a.Withdraw)`,
// `e.Add(http.MethodPost, "/members/:id", h.Redeem)`.
func (g *fileGen) frameworkRoute(fw framework, fn *types.Func) (method, route string, ok bool) {
	if fn == nil || g.syntax == nil || g.syntax.TypesInfo == nil {
		return "", "", false
	}
	info := g.syntax.TypesInfo
	str := func(e ast.Expr) (string, bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	for _, f := range g.syntax.Syntax {
		ast.Inspect(f, func(x ast.Node) bool {
			call, isCall := x.(*ast.CallExpr)
			if ok || !isCall {
				return !ok
			}
			sel, isSel := call.Fun.(*ast.SelectorExpr)
			if !isSel || !strings.Contains(typeString(info.TypeOf(sel.X)), fw.pkg) {
				return true
			}
			var m string
			args := call.Args
			switch verb, isVerb := routeVerbs[sel.Sel.Name]; {
			case isVerb:
				m = verb
			case (sel.Sel.Name == "Handle" || sel.Sel.Name == "Add") && len(args) > 0:
				var isStr bool
				if m, isStr = str(args[0]); !isStr {
					return true
				}
				args = args[1:]
			default:
				return true
			}
			if len(args) < 2 {
				return true
			}
			path, isStr := str(args[0])
			if !isStr {
				return true
			}
			for _, h := range args[1:] {
				if refersTo(info, unwrapConversion(h), fn) {
					method, route, ok = m, path, true
				}
			}
			return !ok
		})
		if ok {
			return method, route, true
		}
	}
	return "", "", false
}

func typeString(t types.Type) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// refersTo says whether e names fn (`a.Withdraw`, `Withdraw`).
func refersTo(info *types.Info, e ast.Expr, fn *types.Func) bool {
	var obj types.Object
	switch e := e.(type) {
	case *ast.Ident:
		obj = info.Uses[e]
	case *ast.SelectorExpr:
		if s := info.Selections[e]; s != nil {
			obj = s.Obj()
		} else {
			obj = info.Uses[e.Sel]
		}
	}
	f, ok := obj.(*types.Func)
	return ok && f.Origin() == fn.Origin()
}

// routeParams are the path parameters of a gin or echo route (":id",
// "*path", echo's "*").
func routeParams(route string) map[string]bool {
	out := map[string]bool{}
	for _, s := range strings.Split(route, "/") {
		switch {
		case s == "*":
			out["*"] = true
		case strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*"):
			out[s[1:]] = true
		}
	}
	return out
}

// routeHas says whether route has every one of params.
func routeHas(route string, params []string) bool {
	have := routeParams(route)
	for _, p := range params {
		if !have[p] {
			return false
		}
	}
	return true
}

// syntheticRoute is a route with the path parameters params (echo's
// wildcard "*" last).
func syntheticRoute(params []string) string {
	route, star := "/zzdbverify", false
	for _, p := range params {
		if p == "*" {
			star = true
			continue
		}
		route += "/:" + p
	}
	if star {
		route += "/*"
	}
	return route
}
