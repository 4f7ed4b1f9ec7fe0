package witness

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// entryCall is the body of the switch case calling spec's function: a
// function or method of the package, or a closure a function of the
// package returns ("makeWithdraw$1": makeWithdraw is called and its
// result is called). A handler that decodes a JSON body into a struct
// first gets its body built from that struct (jsonBodyStmt).
func (g *fileGen) entryCall(spec *EntrySpec) (string, error) {
	body, call, err := g.entryCallParts(spec)
	return body + call, err
}

// entryCallParts is entryCall as the statement building the request's
// JSON body ("" for none) and the call.
func (g *fileGen) entryCallParts(spec *EntrySpec) (body, call string, err error) {
	call, err = g.plainCall(spec)
	if err != nil {
		return "", "", err
	}
	if !spec.HTTP && !spec.JSONBytes {
		return "", call, nil
	}
	outer, lit, _ := splitClosure(spec.Key)
	if fn, _, err := g.lookupFunc(outer); err == nil {
		body = g.jsonBodyStmt(spec, fn, lit)
	}
	return body, call, nil
}

// plainCall is entryCall without the request's body.
func (g *fileGen) plainCall(spec *EntrySpec) (string, error) {
	v := &valueGen{g: g, spec: spec}
	outer, lit, err := splitClosure(spec.Key)
	if err != nil {
		return "", err
	}
	fn, recvType, err := g.lookupFunc(outer)
	if err != nil {
		return "", err
	}
	sig := fn.Type().(*types.Signature)
	var call string
	switch {
	case sig.Recv() != nil && sig.RecvTypeParams().Len() > 0:
		var note string
		if fn, recvType, note, err = instantiateMethod(g.pkg, fn, recvType); err != nil {
			return "", fmt.Errorf("a generic method: %w", err)
		}
		sig = fn.Type().(*types.Signature)
		spec.Approximations = append(spec.Approximations, note)
		call, err = g.callExpr(v, fn, recvType, sig, "")
	case sig.TypeParams().Len() > 0:
		var callee, note string
		if sig, callee, note, err = g.instantiateFunc(fn); err != nil {
			return "", fmt.Errorf("a generic function: %w", err)
		}
		spec.Approximations = append(spec.Approximations, note)
		call, err = g.callExpr(v, nil, nil, sig, callee)
	default:
		call, err = g.callExpr(v, fn, recvType, sig, "")
	}
	if err != nil {
		return "", err
	}
	if lit == 0 {
		return resultBody(sig, call), nil
	}
	site, err := g.closureSite(fn, lit)
	if err != nil {
		return "", err
	}
	for _, name := range site.captured {
		if spec.Captured == nil {
			spec.Captured = map[string]string{}
		}
		spec.Captured[name] = outer
	}
	if site.returnedAt < 0 {
		return g.routeCall(v, fn, recvType, sig, site)
	}
	// A closure the outer function returns: its result is called.
	blanks := make([]string, sig.Results().Len())
	for i := range blanks {
		blanks[i] = "_"
	}
	blanks[site.returnedAt] = "zzf"
	callee := "zzf"
	if site.field != "" {
		// (returned in a struct: `return Handlers{Redeem: func…}`)
		callee = "zzf." + site.field
	}
	inner, err := g.callExpr(v, nil, nil, site.sig, callee)
	if err != nil {
		return "", err
	}
	return "\t\t" + strings.Join(blanks, ", ") + " := " + call + "\n" + resultBody(site.sig, inner), nil
}

// splitClosure splits "F$2" into F and 2 (0 for a named function); a
// closure nested in a closure ("F$1$1") is not supported.
func splitClosure(key string) (string, int, error) {
	outer, n, ok := strings.Cut(key, "$")
	if !ok {
		return key, 0, nil
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 {
		return "", 0, fmt.Errorf("a closure inside a closure (%s): the driver calls the closures a function returns", key)
	}
	return outer, i, nil
}

// lookupFunc finds the function or method named key ("F", "(*T).M").
func (g *fileGen) lookupFunc(key string) (*types.Func, types.Type, error) {
	if !strings.HasPrefix(key, "(") {
		if recv, method, ok := valueMethod(key); ok {
			return g.lookupMethod(recv, method)
		}
		f, ok := g.pkg.Scope().Lookup(key).(*types.Func)
		if !ok {
			return nil, nil, fmt.Errorf("no function %s in %s", key, g.pkg.Path())
		}
		return f, nil, nil
	}
	end := strings.Index(key, ").")
	if end < 0 {
		return nil, nil, fmt.Errorf("cannot parse method %s", key)
	}
	return g.lookupMethod(key[1:end], key[end+2:])
}

// valueMethod splits the key of a method with a value receiver, which
// dbverify names without parentheses ("Audited.Debit", as go/ssa does),
// into its receiver type and method. An independent tester's
// dispatch.Audited.Debit was not run: "no function Audited.Debit".
func valueMethod(key string) (recv, method string, ok bool) {
	recv, method, ok = strings.Cut(key, ".")
	if !ok || !token.IsIdentifier(recv) || !token.IsIdentifier(method) {
		return "", "", false
	}
	return recv, method, true
}

// lookupMethod is method of the receiver type recv ("T" or "*T") of the
// package.
func (g *fileGen) lookupMethod(recv, method string) (*types.Func, types.Type, error) {
	tn, ok := g.pkg.Scope().Lookup(strings.TrimPrefix(recv, "*")).(*types.TypeName)
	if !ok {
		return nil, nil, fmt.Errorf("no type %s in %s", recv, g.pkg.Path())
	}
	recvType := tn.Type()
	if strings.HasPrefix(recv, "*") {
		recvType = types.NewPointer(recvType)
	}
	obj, _, _ := types.LookupFieldOrMethod(recvType, true, g.pkg, method)
	f, ok := obj.(*types.Func)
	if !ok {
		return nil, nil, fmt.Errorf("no method %s on %s", method, recv)
	}
	return f, recvType, nil
}

// callExpr is the call of fn (with a receiver of recvType when it is a
// method), or of the function value named callee, with arguments from
// the inputs.
func (g *fileGen) callExpr(v *valueGen, fn *types.Func, recvType types.Type, sig *types.Signature, callee string) (string, error) {
	if fn != nil {
		callee = fn.Name()
		if recvType != nil {
			name := sig.Recv().Name()
			if name == "" || name == "_" {
				name = "recv"
			}
			recv, err := v.expr(recvType, name, 0)
			if err != nil {
				return "", fmt.Errorf("receiver: %w", err)
			}
			callee = "(" + recv + ")." + fn.Name()
		}
	}
	var args []string
	body := g.unmarshalledParam(fn)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		name := p.Name()
		if name == "" || name == "_" {
			name = fmt.Sprintf("arg%d", i)
		}
		e, err := v.expr(p.Type(), name, 0)
		if err != nil {
			return "", fmt.Errorf("parameter %s: %w", name, err)
		}
		if body != nil && p == body {
			e = v.jsonBytes(name, e)
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			e += "..."
		}
		args = append(args, e)
	}
	return callee + "(" + strings.Join(args, ", ") + ")", nil
}

// resultBody calls call (of signature sig) and returns its error result.
func resultBody(sig *types.Signature, call string) string {
	n := sig.Results().Len()
	switch {
	case n == 0:
		return "\t\t" + call + "\n\t\treturn nil\n"
	case isError(sig.Results().At(n - 1).Type()):
		blanks := strings.Repeat("_, ", n-1)
		return "\t\t" + blanks + "e := " + call + "\n\t\treturn e\n"
	default:
		blanks := strings.TrimSuffix(strings.Repeat("_, ", n), ", ")
		return "\t\t" + blanks + " = " + call + "\n\t\treturn nil\n"
	}
}

// closureSite is where a function's closure goes: the result position
// the function returns it at (directly or converted, as in `return
// http.HandlerFunc(func…)`), or the route a router field or parameter
// registers it under (`s.mux.HandleFunc("POST /a/{id}", func…)`).
type closureSite struct {
	sig        *types.Signature
	returnedAt int    // -1: not returned
	field      string // the field of the returned struct that holds it ("": the result itself)
	router     string // the router's expression in the source (s.mux)
	pattern    string // the route's pattern
	// captured are the variables of the function the closure captures.
	captured []string
}

// closureSite finds fn's n-th function literal (in source order, as
// go/ssa numbers closures) and where it goes.
func (g *fileGen) closureSite(fn *types.Func, n int) (*closureSite, error) {
	decl := g.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return nil, fmt.Errorf("no source for %s", fn.Name())
	}
	lits := funcLits(decl)
	if n > len(lits) {
		return nil, fmt.Errorf("%s has no closure number %d", fn.Name(), n)
	}
	lit := lits[n-1]
	site := &closureSite{returnedAt: -1, captured: capturedVars(g.syntax.TypesInfo, decl, lit)}
	site.sig, _ = g.syntax.TypesInfo.TypeOf(lit).(*types.Signature)
	if at, field, ok := returnedStruct(decl.Body, lit); ok {
		site.returnedAt, site.field = at, field
	}
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for i, r := range x.Results {
				if unwrapConversion(r) == lit {
					site.returnedAt = i
				}
			}
		case *ast.CallExpr:
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok || len(x.Args) != 2 || unwrapConversion(x.Args[1]) != lit || (sel.Sel.Name != "HandleFunc" && sel.Sel.Name != "Handle") {
				return true
			}
			if pat, ok := x.Args[0].(*ast.BasicLit); ok {
				site.router, site.pattern = types.ExprString(sel.X), pat.Value
			}
		}
		return true
	})
	if site.sig == nil || site.returnedAt < 0 && site.router == "" {
		return nil, fmt.Errorf("a closure %s neither returns nor registers with HandleFunc: the driver calls only those", fn.Name())
	}
	return site, nil
}

// routeCall calls fn, which registers the closure on a router under a
// pattern, and serves a request for that route through the router. The
// receiver and parameters are bound to their names in the source, which
// the router's expression uses.
func (g *fileGen) routeCall(v *valueGen, fn *types.Func, recvType types.Type, sig *types.Signature, site *closureSite) (string, error) {
	var names, temps, exprs []string
	bind := func(name string, t types.Type) error {
		e, err := v.expr(t, name, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		names, exprs = append(names, name), append(exprs, e)
		temps = append(temps, fmt.Sprintf("zzv%d", len(temps)))
		return nil
	}
	callee := fn.Name()
	if recvType != nil {
		if err := bind(sig.Recv().Name(), recvType); err != nil {
			return "", err
		}
		callee = temps[0] + "." + fn.Name()
	}
	first := len(temps)
	for i := 0; i < sig.Params().Len(); i++ {
		if err := bind(sig.Params().At(i).Name(), sig.Params().At(i).Type()); err != nil {
			return "", err
		}
	}
	for _, n := range names {
		if n == "" || n == "_" {
			return "", fmt.Errorf("%s has an unnamed receiver or parameter", fn.Name())
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\t\tzzctx, zzin := ctx, in\n\t\t%s := %s\n", strings.Join(temps, ", "), strings.Join(exprs, ", "))
	fmt.Fprintf(&b, "\t\t%s(%s)\n", callee, strings.Join(temps[first:], ", "))
	fmt.Fprintf(&b, "\t\t%s := %s\n\t\t_, _ = zzctx, zzin\n", strings.Join(names, ", "), strings.Join(temps, ", "))
	for _, n := range names {
		fmt.Fprintf(&b, "\t\t_ = %s\n", n)
	}
	fmt.Fprintf(&b, "\t\tzzrt.ServeRoute(%s, %s, zzctx, zzin)\n\t\treturn nil\n", site.router, site.pattern)
	v.spec.HTTP = true
	v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("the closure is called by serving a request for %s through %s after %s registered it", site.pattern, site.router, fn.Name()))
	return b.String(), nil
}

// unwrapConversion strips parentheses and one-argument calls (type
// conversions such as http.HandlerFunc(f)).
func unwrapConversion(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.CallExpr:
			if len(x.Args) != 1 {
				return e
			}
			e = x.Args[0]
		default:
			return e
		}
	}
}

// funcDecl is fn's declaration in the package's syntax.
func (g *fileGen) funcDecl(fn *types.Func) *ast.FuncDecl {
	if g.syntax == nil || g.syntax.TypesInfo == nil {
		return nil
	}
	for _, f := range g.syntax.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && g.syntax.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}
