package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Handlers built as a struct of closures (`return Handlers{Redeem:
// func(c echo.Context) error {…}, Refund: …}`) are named by their field,
// `NewHandlers.Redeem`, not by go/ssa's number, `NewHandlers$1`, which a
// user cannot map back to the code (an independent tester's adv19).

// closureField is the struct field fn, a closure, is stored in by the
// function that makes it (a keyed element of a composite literal, or an
// assignment to a field), when that function stores no other of its
// closures in a field of that name; "" otherwise.
func closureField(fn *ssa.Function) string {
	parent := fn.Parent()
	if parent == nil {
		return ""
	}
	fields := map[*ssa.Function]string{}
	uses := map[string]int{}
	for _, b := range parent.Blocks {
		for _, ins := range b.Instrs {
			st, ok := ins.(*ssa.Store)
			if !ok {
				continue
			}
			c := storedClosure(st.Val)
			fa, isField := st.Addr.(*ssa.FieldAddr)
			if c == nil || c.Parent() != parent || !isField {
				continue
			}
			name := closureFieldName(fa)
			if name == "" || fields[c] == name {
				continue
			}
			if fields[c] != "" {
				uses[fields[c]]++ // (stored in two fields: its own name then)
			}
			fields[c] = name
			uses[name]++
		}
	}
	if name := fields[fn]; name != "" && uses[name] == 1 {
		return name
	}
	return ""
}

// storedClosure is the closure a stored value is (a function literal
// with or without captured variables), or nil.
func storedClosure(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	case *ssa.Function:
		return v
	case *ssa.ChangeType:
		return storedClosure(v.X) // (a named function type: http.HandlerFunc(func…))
	}
	return nil
}

// closureFieldName is the name of the struct field fa addresses.
func closureFieldName(fa *ssa.FieldAddr) string {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return ""
	}
	return s.Field(fa.Field).Name()
}
