package frontend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The program's own error types. A value of a type declared in the module
// boxed as an error is no own sentinel (its dynamic type differs), and
// what errors.Is sees through it is decided by its methods:
//
//   - no Unwrap, Is or As method: it wraps nothing (an exact tag, like
//     errors.New's);
//   - Unwrap() error whose body returns a field of its receiver, and no Is
//     or As method, boxed right after a composite literal that nothing
//     else uses (&fieldError{err: ErrOverLimit}), and whose field no code
//     of the module writes through a pointer that may be the boxed one (a
//     type assertion's fe.err = …): it wraps what the error stored in
//     that field is and wraps (nothing where none is stored);
//   - anything else (Unwrap() []error, an Is or As method, an Unwrap that
//     computes, a value the model did not see built): unknown, so that
//     its tests stay marked approximations (errapprox.go).

// ownErrTypeTag returns the tag of error i, a value of a concrete type
// boxed as an error (nil: unknown).
func (t *translator) ownErrTypeTag(f *frame, i *ssa.MakeInterface) *errTag {
	typ := i.X.Type()
	if !t.l.typeInModule(typ) {
		return nil
	}
	ms := t.l.Prog.MethodSets.MethodSet(typ)
	var unwrap *types.Selection
	for k := range ms.Len() {
		switch sel := ms.At(k); sel.Obj().Name() {
		case "Is", "As":
			return nil
		case "Unwrap":
			unwrap = sel
		}
	}
	if unwrap == nil {
		return freshErr()
	}
	field, ok := t.l.unwrapField(unwrap, typ)
	if !ok {
		return nil
	}
	stored, ok := literalField(i, field)
	if !ok || t.l.fieldWrittenThroughPointer(baseType(typ), field) {
		return nil
	}
	if stored == nil {
		return freshErr() // the field is nil: Unwrap returns nil
	}
	if k, ok := stored.(*ssa.Const); ok && k.IsNil() {
		return freshErr()
	}
	v, ok := f.env[stored]
	if !ok || v.err == nil {
		return freshErr(nil)
	}
	return freshErr(v.err)
}

// typeInModule reports whether typ is (a pointer to) a named type
// declared in a package of the module.
func (l *Loaded) typeInModule(typ types.Type) bool {
	n, ok := baseType(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && l.declaredInModule(n.Obj().Pkg())
}

// unwrapField returns the index of the field of its receiver that method
// sel (Unwrap() error of typ, declared on typ's own named type) returns,
// when its body is just that.
func (l *Loaded) unwrapField(sel *types.Selection, typ types.Type) (int, bool) {
	sig, ok := sel.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return 0, false
	}
	fn := l.unwrap(l.Prog.MethodValue(sel))
	if fn == nil || !l.inModule(fn) || len(fn.Params) != 1 || len(fn.Blocks) != 1 {
		return 0, false
	}
	if !types.Identical(baseType(fn.Params[0].Type()), baseType(typ)) {
		return 0, false // promoted from an embedded type
	}
	recv := fn.Params[0]
	for _, instr := range fn.Blocks[0].Instrs {
		ret, ok := instr.(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return 0, false
		}
		switch r := ret.Results[0].(type) {
		case *ssa.Field: // value receiver: e.err
			if r.X == recv {
				return r.Field, true
			}
		case *ssa.UnOp: // pointer receiver: *(&e.err)
			if fa, ok := r.X.(*ssa.FieldAddr); ok && r.Op == token.MUL && fa.X == recv {
				return fa.Field, true
			}
		}
		return 0, false
	}
	return 0, false
}

// baseType is typ without a pointer.
func baseType(typ types.Type) types.Type {
	if p, ok := typ.(*types.Pointer); ok {
		return p.Elem()
	}
	return typ
}

// literalField returns the value stored into field of the composite
// literal that i boxes (i.X is &T{…}, or *&T{…} for a value), nil when
// none is stored; ok is false when i.X is not such a literal, or when
// anything else uses it (a later write could change the field).
func literalField(i *ssa.MakeInterface, field int) (ssa.Value, bool) {
	var user ssa.Instruction = i
	x := i.X
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		user, x = u, u.X
	}
	a, ok := x.(*ssa.Alloc)
	if !ok || a.Block() != i.Block() {
		return nil, false
	}
	at := instrIndex(user)
	var stored ssa.Value
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if r.Block() != i.Block() || instrIndex(r) > at {
				return nil, false
			}
			for _, s := range *r.Referrers() {
				st, ok := s.(*ssa.Store)
				if !ok || st.Addr != r || instrIndex(st) > at {
					return nil, false
				}
				if r.Field == field {
					stored = st.Val
				}
			}
		default:
			if r != user {
				return nil, false
			}
		}
	}
	return stored, true
}

// instrIndex returns the index of instr in its block.
func instrIndex(instr ssa.Instruction) int {
	for k, x := range instr.Block().Instrs {
		if x == instr {
			return k
		}
	}
	return -1
}

// fieldWrittenThroughPointer reports whether some module code stores into
// field of struct type typ through a pointer other than a local
// allocation: one that may be a boxed error's (err.(*T).f = …).
func (l *Loaded) fieldWrittenThroughPointer(typ types.Type, field int) bool {
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok || fa.Field != field || !types.Identical(baseType(fa.X.Type()), typ) {
					continue
				}
				if _, local := fa.X.(*ssa.Alloc); local {
					continue
				}
				for _, r := range *fa.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
						return true
					}
				}
			}
		}
	}
	return false
}
