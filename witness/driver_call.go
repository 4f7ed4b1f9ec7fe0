package witness

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// entryCall is the body of the switch case calling spec's function: a
// function or method of the package, or a closure a function of the
// package returns ("makeWithdraw$1": makeWithdraw is called and its
// result is called).
func (g *fileGen) entryCall(spec *EntrySpec) (string, error) {
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
	if sig.TypeParams().Len() > 0 || (sig.Recv() != nil && sig.RecvTypeParams().Len() > 0) {
		return "", fmt.Errorf("a generic function")
	}
	call, err := g.callExpr(v, fn, recvType, sig, "")
	if err != nil {
		return "", err
	}
	if lit == 0 {
		return resultBody(sig, call), nil
	}
	// A closure: the result of the outer function that is the literal.
	idx, litSig, err := g.returnedLiteral(fn, lit)
	if err != nil {
		return "", err
	}
	blanks := make([]string, sig.Results().Len())
	for i := range blanks {
		blanks[i] = "_"
	}
	blanks[idx] = "zzf"
	inner, err := g.callExpr(v, nil, nil, litSig, "zzf")
	if err != nil {
		return "", err
	}
	return "\t\t" + strings.Join(blanks, ", ") + " := " + call + "\n" + resultBody(litSig, inner), nil
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
	recv, method := key[1:end], key[end+2:]
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

// returnedLiteral finds fn's n-th function literal (in source order, as
// go/ssa numbers closures) and the result position fn returns it at
// (directly or converted, as in `return http.HandlerFunc(func…)`).
func (g *fileGen) returnedLiteral(fn *types.Func, n int) (int, *types.Signature, error) {
	decl := g.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return 0, nil, fmt.Errorf("no source for %s", fn.Name())
	}
	var lits []*ast.FuncLit
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		if l, ok := x.(*ast.FuncLit); ok {
			lits = append(lits, l)
			return false // nested literals are numbered under it
		}
		return true
	})
	if n > len(lits) {
		return 0, nil, fmt.Errorf("%s has no closure number %d", fn.Name(), n)
	}
	lit := lits[n-1]
	sig, _ := g.syntax.TypesInfo.TypeOf(lit).(*types.Signature)
	found := -1
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		if ret, ok := x.(*ast.ReturnStmt); ok {
			for i, r := range ret.Results {
				if unwrapConversion(r) == lit {
					found = i
				}
			}
		}
		return true
	})
	if found < 0 || sig == nil {
		return 0, nil, fmt.Errorf("a closure %s does not return: the driver calls only the closures a function returns", fn.Name())
	}
	return found, sig, nil
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
