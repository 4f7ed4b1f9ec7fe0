package witness

import (
	"fmt"
	"go/types"
	"strings"
)

// typeArgs chooses a type argument for each type parameter: struct{} for
// one constrained by an interface without methods or type terms (any,
// comparable), else the first type of its constraint's terms (~int | ~string:
// int). An error says which parameter has none (a constraint with methods).
func typeArgs(tps *types.TypeParamList) ([]types.Type, error) {
	var out []types.Type
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumMethods() > 0 {
			return nil, fmt.Errorf("type parameter %s has a constraint with methods", tp.Obj().Name())
		}
		arg := types.Type(types.NewStruct(nil, nil))
		if iface.NumEmbeddeds() > 0 {
			if u, ok := iface.EmbeddedType(0).(*types.Union); ok && u.Len() > 0 {
				arg = u.Term(0).Type()
			} else if !iface.IsComparable() {
				return nil, fmt.Errorf("type parameter %s: no type of its constraint found", tp.Obj().Name())
			}
		}
		out = append(out, arg)
	}
	return out, nil
}

// instantiateMethod instantiates the generic receiver type of method fn
// (recvType is T or *T of the generic T) and returns the instantiated
// method and receiver type, with the approximation it makes.
func instantiateMethod(pkg *types.Package, fn *types.Func, recvType types.Type) (*types.Func, types.Type, string, error) {
	ptr := false
	base := recvType
	if p, ok := recvType.(*types.Pointer); ok {
		ptr, base = true, p.Elem()
	}
	named, ok := base.(*types.Named)
	if !ok || named.TypeParams().Len() == 0 {
		return nil, nil, "", fmt.Errorf("a generic method of a type that is not generic")
	}
	args, err := typeArgs(named.TypeParams())
	if err != nil {
		return nil, nil, "", err
	}
	inst, err := types.Instantiate(nil, named, args, true)
	if err != nil {
		return nil, nil, "", fmt.Errorf("instantiating %s: %w", named.Obj().Name(), err)
	}
	var t types.Type = inst
	if ptr {
		t = types.NewPointer(inst)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, fn.Name())
	m, ok := obj.(*types.Func)
	if !ok {
		return nil, nil, "", fmt.Errorf("no method %s on the instantiated %s", fn.Name(), inst)
	}
	return m, t, fmt.Sprintf("the generic %s is instantiated as %s", named.Obj().Name(), typeList(named.TypeParams(), args)), nil
}

// instantiateFunc instantiates generic function fn; callee is its name
// with the type arguments ("F[struct{}]").
func (g *fileGen) instantiateFunc(fn *types.Func) (sig *types.Signature, callee, note string, err error) {
	gsig := fn.Type().(*types.Signature)
	args, err := typeArgs(gsig.TypeParams())
	if err != nil {
		return nil, "", "", err
	}
	inst, err := types.Instantiate(nil, gsig, args, true)
	if err != nil {
		return nil, "", "", fmt.Errorf("instantiating %s: %w", fn.Name(), err)
	}
	var names []string
	for _, a := range args {
		names = append(names, g.typeString(a))
	}
	return inst.(*types.Signature), fn.Name() + "[" + strings.Join(names, ", ") + "]",
		fmt.Sprintf("the generic %s is instantiated as %s", fn.Name(), typeList(gsig.TypeParams(), args)), nil
}

func typeList(tps *types.TypeParamList, args []types.Type) string {
	var parts []string
	for i, a := range args {
		parts = append(parts, tps.At(i).Obj().Name()+" = "+a.String())
	}
	return strings.Join(parts, ", ")
}
