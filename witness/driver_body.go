package witness

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
)

// JSONFieldPrefix starts the driver inputs that give a handler's JSON body
// field by field, by Go field path ("$http.json.Amount",
// "$http.json.Payer.ID"): the driver builds the body from a value of the
// Go type the handler decodes into (see HTTPInputs).
const JSONFieldPrefix = "$http.json."

// bindMethods are the methods that decode a request's JSON body into
// their first argument: encoding/json's Decoder.Decode, gin's and echo's
// binders.
var bindMethods = map[string]bool{
	"Decode": true, "ShouldBindJSON": true, "BindJSON": true, "ShouldBind": true, "Bind": true,
	"ShouldBindWith": true, "BindWith": true, "MustBindWith": true,
	"ShouldBindBodyWith": true, "ShouldBindBodyWithJSON": true,
}

// bindReceivers are the receiver types of bindMethods.
var bindReceivers = map[string]bool{
	"*encoding/json.Decoder":              true,
	"*github.com/gin-gonic/gin.Context":   true,
	"github.com/labstack/echo/v4.Context": true,
}

// jsonBodyStmt is the statement that replaces the run's "$http.body" by a
// value of the struct type fn (or its lit-th closure) decodes the request's
// body into, with the fields the run gives set ("$http.json.…" inputs),
// marshalled with encoding/json: tags, omitempty and strings of digits
// come out as the handler reads them. It is "" when fn decodes no body
// into a struct, or into one the driver cannot name.
func (g *fileGen) jsonBodyStmt(spec *EntrySpec, fn *types.Func, lit int) string {
	t := g.bodyType(fn, lit)
	if t == nil {
		return ""
	}
	typ := g.typeString(t)
	if !g.nameable(t, 0) {
		u := t.Underlying()
		if !g.nameable(u, 0) {
			return ""
		}
		typ = g.typeString(u)
	}
	// Leaf values read as the driver reads parameters, without making the
	// body's fields inputs of random runs.
	v := &valueGen{g: g, spec: &EntrySpec{}}
	var sets []string
	g.bodySets(v, t, "zzb", strings.TrimSuffix(JSONFieldPrefix, "."), 0, &sets)
	if len(sets) == 0 {
		return ""
	}
	spec.Approximations = append(spec.Approximations, fmt.Sprintf("the JSON body is a %s with the run's values of its fields, marshalled by encoding/json", typ))
	spec.BodyLeaves = nil
	g.jsonLeaves(t, "", nil, 0, &spec.BodyLeaves)
	var b strings.Builder
	fmt.Fprintf(&b, "\t\tin = in.WithJSON(func() any {\n\t\t\tvar zzb %s\n", typ)
	for _, s := range sets {
		b.WriteString("\t\t\t" + s + "\n")
	}
	b.WriteString("\t\t\treturn zzb\n\t\t}())\n")
	return b.String()
}

// bodySets appends the statements that set the fields of the struct (or
// pointer to struct) t at target from the inputs under path, each when the
// run gives it. Fields encoding/json skips (unexported, `json:"-"`) and
// fields of kinds the driver does not build (slices, maps, interfaces)
// keep their zero value.
func (g *fileGen) bodySets(v *valueGen, t types.Type, target, path string, depth int, sets *[]string) {
	if depth > maxDepth {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t, target = p.Elem(), "zzrt.Alloc(&"+target+")"
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() || reflect.StructTag(st.Tag(i)).Get("json") == "-" {
			continue
		}
		ft, fTarget, fPath := f.Type(), target+"."+f.Name(), path+"."+f.Name()
		switch {
		case isLeaf(ft) && g.nameable(ft, 0):
			e, err := v.expr(ft, fPath, 0)
			if err != nil || strings.HasPrefix(e, "*new(") {
				continue
			}
			cond := fmt.Sprintf("in.Has(%q)", fPath)
			if _, isPtr := ft.Underlying().(*types.Pointer); isPtr {
				cond += fmt.Sprintf(" && in[%q] != \"nil\"", fPath) // (a nil pointer stays nil)
			}
			*sets = append(*sets, fmt.Sprintf("if %s {\n\t%s = %s\n}", cond, fTarget, e))
		case g.isStructOrPtr(ft):
			g.bodySets(v, ft, fTarget, fPath, depth+1, sets)
		}
	}
}

// isLeaf: a boolean, number, string or decimal, or a pointer to one.
func isLeaf(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if t.String() == "github.com/shopspring/decimal.Decimal" {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0 && b.Info()&types.IsComplex == 0
}

// isStructOrPtr: a struct or a pointer to one, declared in a module
// rather than in the standard library (time.Time and the like marshal
// themselves).
func (g *fileGen) isStructOrPtr(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return true // a struct literal type
	}
	if n.Obj().Pkg() == nil {
		return false
	}
	first := strings.Split(n.Obj().Pkg().Path(), "/")[0]
	return strings.Contains(first, ".") || first == strings.Split(g.pkg.Path(), "/")[0]
}

// nameable says whether the generated file, in g's package, can spell t:
// its named types are declared at package level, in g's package or
// exported by theirs.
func (g *fileGen) nameable(t types.Type, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.UnsafePointer
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return true // error
		}
		if t.TypeArgs().Len() > 0 || obj.Parent() != obj.Pkg().Scope() {
			return false
		}
		return obj.Pkg() == g.pkg || obj.Exported()
	case *types.Alias:
		return g.nameable(types.Unalias(t), depth)
	case *types.Pointer:
		return g.nameable(t.Elem(), depth+1)
	case *types.Slice:
		return g.nameable(t.Elem(), depth+1)
	case *types.Array:
		return g.nameable(t.Elem(), depth+1)
	case *types.Map:
		return g.nameable(t.Key(), depth+1) && g.nameable(t.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() != g.pkg || !g.nameable(f.Type(), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// bodyType is the type fn (or its lit-th closure) decodes a request's JSON
// body into, at its first decoding call (`json.NewDecoder(r.Body).Decode(&req)`,
// `json.Unmarshal(data, &req)`, `c.ShouldBindJSON(&req)`, `c.Bind(&req)`),
// when that is a struct or a pointer to one; nil otherwise.
func (g *fileGen) bodyType(fn *types.Func, lit int) types.Type {
	decl := g.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	var root ast.Node = decl.Body
	if lit > 0 {
		lits := funcLits(decl)
		if lit > len(lits) {
			return nil
		}
		root = lits[lit-1].Body
	}
	info := g.syntax.TypesInfo
	var found types.Type
	ast.Inspect(root, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		arg := -1
		if f, ok := info.Uses[sel.Sel].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "encoding/json" && f.Name() == "Unmarshal" {
			arg = 1
		} else if recv := info.TypeOf(sel.X); bindMethods[sel.Sel.Name] && recv != nil && bindReceivers[recv.String()] {
			arg = 0
		}
		if arg < 0 || len(call.Args) <= arg {
			return true
		}
		found = decodedType(info, call.Args[arg])
		return found == nil
	})
	if found == nil || !g.isStructOrPtr(found) {
		return nil
	}
	return found
}

// decodedType is the type a decoding call's argument (`&req`, or a
// pointer `req`) receives.
func decodedType(info *types.Info, arg ast.Expr) types.Type {
	if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
		return info.TypeOf(u.X)
	}
	if p, ok := info.TypeOf(arg).(*types.Pointer); ok {
		return p.Elem()
	}
	return nil
}

// funcLits are the function literals of decl's body in source order (as
// go/ssa numbers closures; nested literals are numbered under theirs).
func funcLits(decl *ast.FuncDecl) []*ast.FuncLit {
	var lits []*ast.FuncLit
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		if l, ok := x.(*ast.FuncLit); ok {
			lits = append(lits, l)
			return false
		}
		return true
	})
	return lits
}

// unmarshalledParam is the []byte parameter of fn that fn's body decodes
// with json.Unmarshal(param, &req) into a struct (an entry that takes a
// request's raw body), or nil.
func (g *fileGen) unmarshalledParam(fn *types.Func) *types.Var {
	if fn == nil {
		return nil
	}
	decl := g.funcDecl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	params := fn.Type().(*types.Signature).Params()
	info := g.syntax.TypesInfo
	var found *types.Var
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || found != nil || len(call.Args) != 2 {
			return found == nil
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		f, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok || f.Pkg() == nil || f.Pkg().Path() != "encoding/json" || f.Name() != "Unmarshal" {
			return true
		}
		id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok {
			return true
		}
		for i := 0; i < params.Len(); i++ {
			if p := params.At(i); info.Uses[id] == p && isByteSlice(p.Type()) {
				found = p
			}
		}
		return found == nil
	})
	return found
}

// isByteSlice: a []byte (or a named type of one, json.RawMessage).
func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// jsonBytes is the argument expression of a parameter that the entry
// decodes with json.Unmarshal: the run's JSON body ("$http.body", which
// the body statement marshals from the decoded struct's fields), else
// the slice e built from the inputs. An independent tester's
// mini/jsonbodyreplay: the trace decoded {"id":2,"amount":1} from raw,
// and replay passed an empty raw ("unexpected end of JSON input").
func (v *valueGen) jsonBytes(name, e string) string {
	v.spec.JSONBytes = true
	v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s is the run's JSON body, marshalled from the fields the trace decodes", name))
	return "zzrt.JSONBytes(in, " + e + ")"
}
