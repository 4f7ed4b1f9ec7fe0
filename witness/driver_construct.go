package witness

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// hiddenFields reports whether st, the struct of the named type t, belongs
// to another package than the entry's and has unexported fields: a
// literal cannot set those (its database handle, typically), so the value
// comes from a constructor of its package or is filled by reflection.
func (v *valueGen) hiddenFields(t types.Type, st *types.Struct) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg() == v.g.pkg {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !st.Field(i).Exported() {
			return true
		}
	}
	return false
}

// holdsStatement reports whether st has a prepared statement field
// (*sql.Stmt): only the package's constructor prepares it (a zero
// sql.Stmt runs nothing), so the value is built as foreignValue builds
// one.
func holdsStatement(st *types.Struct) bool {
	for i := 0; i < st.NumFields(); i++ {
		if types.TypeString(st.Field(i).Type(), nil) == "*database/sql.Stmt" {
			return true
		}
	}
	return false
}

// foreignValue is the expression for a value of type t (T or *T, T a
// struct of another package with unexported fields): the call of a
// constructor of T's package when one returns t, else a literal of its
// exported fields whose database handles, exported or not, are filled by
// the runtime (zzrt.FillHandles).
func (v *valueGen) foreignValue(t, named types.Type, st *types.Struct, meta, pathExpr string, depth int) (string, error) {
	if call, fn, err := v.constructorCall(t, meta, depth); err != nil {
		return "", err
	} else if call != "" {
		v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) is built by its package's constructor %s", meta, t, fn))
		return call, nil
	}
	lit, err := v.structLit(named, st, v.g.typeString(named), meta, pathExpr, depth)
	if err != nil {
		return "", err
	}
	v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) has no constructor: its exported fields are set from the inputs, its database handles filled and its other unexported fields left zero", meta, t))
	e := "zzrt.FillHandles(&" + lit + ", h)"
	if _, isPtr := t.(*types.Pointer); !isPtr {
		e = "*" + e
	}
	return e, nil
}

// constructorCall calls a function of t's package that returns t (and
// possibly an error), preferring New<T>, then New, then other New…
// functions; "" when there is none the driver can call.
func (v *valueGen) constructorCall(t types.Type, meta string, depth int) (call, name string, err error) {
	elem := t
	if p, ok := t.(*types.Pointer); ok {
		elem = p.Elem()
	}
	n, ok := types.Unalias(elem).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", "", nil
	}
	for _, fn := range constructors(n.Obj().Pkg(), n.Obj().Name(), t) {
		sig := fn.Type().(*types.Signature)
		save, imports := len(v.spec.Inputs), v.g.saveImports()
		var args []string
		var argErr error
		for i := 0; i < sig.Params().Len() && argErr == nil; i++ {
			p := sig.Params().At(i)
			var e string
			e, argErr = v.expr(p.Type(), meta+"."+p.Name(), depth+1)
			args = append(args, e)
		}
		if argErr != nil || sig.Variadic() {
			v.spec.Inputs, v.g.imports = v.spec.Inputs[:save], imports
			continue
		}
		name = n.Obj().Pkg().Name() + "." + fn.Name()
		qual := "" // the driver's file is in the package itself
		if n.Obj().Pkg() != v.g.pkg {
			qual = v.g.importAs(n.Obj().Pkg().Path()) + "."
		}
		call = qual + fn.Name() + "(" + strings.Join(args, ", ") + ")"
		if sig.Results().Len() == 2 {
			call = "zzrt.Must(" + call + ")"
		}
		return call, name, nil
	}
	return "", "", nil
}

// constructors are the exported functions of pkg named New… that return
// t, or t and an error, in preference order.
func constructors(pkg *types.Package, typeName string, t types.Type) []*types.Func {
	var out []*types.Func
	for _, name := range pkg.Scope().Names() {
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok || !fn.Exported() || !strings.HasPrefix(name, "New") {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.TypeParams().Len() > 0 || sig.Results().Len() == 0 || sig.Results().Len() > 2 || !types.Identical(sig.Results().At(0).Type(), t) {
			continue
		}
		if sig.Results().Len() == 2 && !isError(sig.Results().At(1).Type()) {
			continue
		}
		out = append(out, fn)
	}
	rank := func(f *types.Func) int {
		switch f.Name() {
		case "New" + typeName:
			return 0
		case "New":
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// wiredValue is the call of a constructor of t's package when st holds
// an unexported function field (directly or in a struct it points to): the
// package wires such fields with its own closures (a store's load and
// save), which the analysis runs where the field is called and a stub
// returning zero values would not; "" when st has none or no constructor
// returns t.
func (v *valueGen) wiredValue(t types.Type, st *types.Struct, meta string, depth int) (string, error) {
	if !holdsFuncField(st, 0) {
		return "", nil
	}
	call, fn, err := v.constructorCall(t, meta, depth)
	if err != nil || call == "" {
		return "", err
	}
	v.spec.Approximations = append(v.spec.Approximations, fmt.Sprintf("%s (%s) is built by its package's constructor %s (it wires the function fields)", meta, t, fn))
	return call, nil
}

// funcAdapterFor reports whether pkg declares a named function type
// that implements iface (a function adapter, like http.HandlerFunc).
func funcAdapterFor(pkg *types.Package, iface *types.Interface) bool {
	if iface.NumMethods() == 0 {
		return false
	}
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isFunc := tn.Type().Underlying().(*types.Signature); isFunc && types.Implements(tn.Type(), iface) {
			return true
		}
	}
	return false
}

// holdsFuncField reports whether st has an unexported field of function
// type (or of an interface type a function adapter of its package
// implements), directly or in a struct field (or pointer to one) whose type is of
// the same package (not a library's: sql.DB's hooks do not count), to
// depth 3.
func holdsFuncField(st *types.Struct, depth int) bool {
	if depth > 3 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		ft := f.Type()
		if p, ok := ft.Underlying().(*types.Pointer); ok {
			ft = p.Elem()
		}
		if n, ok := types.Unalias(ft).(*types.Named); ok && n.Obj().Pkg() != f.Pkg() {
			continue
		}
		switch u := ft.Underlying().(type) {
		case *types.Signature:
			if !f.Exported() {
				return true
			}
		case *types.Struct:
			if holdsFuncField(u, depth+1) {
				return true
			}
		case *types.Interface:
			// A function adapter kept in an interface field
			// (spend: SpenderFunc(func…)), as the analysis runs it.
			if !f.Exported() && f.Pkg() != nil && funcAdapterFor(f.Pkg(), u) {
				return true
			}
		}
	}
	return false
}
