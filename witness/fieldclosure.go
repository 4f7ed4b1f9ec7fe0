package witness

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// dbverify names a closure its function stores in a struct field by
// that field ("NewHandlers.Redeem" for `return Handlers{Redeem:
// func(c echo.Context) error {…}}`); the driver finds closures by go/ssa's
// number ("NewHandlers$1") and calls one a function returns in a struct
// through the struct's field.

// numberedKey is key with a closure named by its field ("NewHandlers.Redeem")
// in go/ssa's numbered form ("NewHandlers$1"); any other key unchanged.
func (g *fileGen) numberedKey(key string) string {
	if _, _, err := g.lookupFunc(key); err == nil {
		return key // (a method T.M)
	}
	dot := strings.LastIndexByte(key, '.')
	if dot < 0 || !token.IsIdentifier(key[dot+1:]) {
		return key
	}
	outer, field := key[:dot], key[dot+1:]
	fn, _, err := g.lookupFunc(outer)
	if err != nil {
		return key
	}
	decl := g.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return key
	}
	for i, lit := range funcLits(decl) {
		if fieldOf(decl.Body, lit) == field {
			return outer + "$" + strconv.Itoa(i+1)
		}
	}
	return key
}

// fieldOf is the struct field body stores lit in: a keyed element of a
// composite literal (`Handlers{Redeem: lit}`) or an assignment to a
// field (`h.Redeem = lit`); "" for none.
func fieldOf(body *ast.BlockStmt, lit *ast.FuncLit) string {
	field := ""
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.KeyValueExpr:
			if id, ok := x.Key.(*ast.Ident); ok && unwrapConversion(x.Value) == lit {
				field = id.Name
			}
		case *ast.AssignStmt:
			for i, r := range x.Rhs {
				if sel, ok := x.Lhs[min(i, len(x.Lhs)-1)].(*ast.SelectorExpr); ok && unwrapConversion(r) == lit {
					field = sel.Sel.Name
				}
			}
		}
		return field == ""
	})
	return field
}

// returnedStruct is, when the closure lit is a keyed element of a
// composite literal that a return statement of body returns (`return
// Handlers{Redeem: lit}`, `return &Handlers{…}`), the result position
// and the field; ok false otherwise.
func returnedStruct(body *ast.BlockStmt, lit *ast.FuncLit) (at int, field string, ok bool) {
	ast.Inspect(body, func(x ast.Node) bool {
		r, isReturn := x.(*ast.ReturnStmt)
		if !isReturn || ok {
			return !ok
		}
		for i, e := range r.Results {
			if u, isAddr := e.(*ast.UnaryExpr); isAddr && u.Op == token.AND {
				e = u.X
			}
			cl, isLit := unwrapConversion(e).(*ast.CompositeLit)
			if !isLit {
				continue
			}
			for _, el := range cl.Elts {
				kv, isKV := el.(*ast.KeyValueExpr)
				if id, isID := kv.Key.(*ast.Ident); isKV && isID && unwrapConversion(kv.Value) == lit {
					at, field, ok = i, id.Name, true
				}
			}
		}
		return !ok
	})
	return at, field, ok
}
