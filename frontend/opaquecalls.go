package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
)

// Calls through a function value the analysis cannot follow (a field
// `now func() time.Time` set by a constructor, an injected hook). Such a
// call is modelled as an outside call — arbitrary results, its
// arguments' memory havocked — when it cannot touch the database: its
// signature passes no database handle, interface, or function (that could
// hold one), and no function of the module with that signature reads or
// writes the database. Otherwise the call stays unsupported (UNKNOWN).
// An injectable clock was UNKNOWN on decidable code (independent suite,
// p22/p23) while the same code calling time.Now() was decided.

// dbFreeSignature reports whether a call of an unknown function of
// signature sig cannot run SQL (see above).
func (l *Loaded) dbFreeSignature(sig *types.Signature) bool {
	key := types.TypeString(sig, nil)
	if free, ok := l.dbFreeCache[key]; ok {
		return free
	}
	free := l.dbFree(sig)
	if l.dbFreeCache == nil {
		l.dbFreeCache = map[string]bool{}
	}
	l.dbFreeCache[key] = free
	return free
}

// dbFree computes dbFreeSignature (every module function is visited).
func (l *Loaded) dbFree(sig *types.Signature) bool {
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			typ := tup.At(i).Type()
			if _, isDB := dbObjectKind(typ); isDB || dblib.IsDBInterface(typ) || mayHoldHandle(typ) {
				return false
			}
		}
	}
	reach := l.reach()
	for _, fn := range l.allModuleFunctions() {
		if !sameShape(fn.Signature, sig) {
			continue
		}
		if r := reach[fn]; r == nil || r.UnknownSQL || r.Reads || len(r.Tables) > 0 {
			return false
		}
	}
	return true
}

// mayHoldHandle reports whether a value of typ may carry a database
// handle or code that uses one: an interface, a function, a pointer or
// a struct of a type from outside the standard library's plain values.
func mayHoldHandle(typ types.Type) bool {
	switch u := typ.Underlying().(type) {
	case *types.Interface, *types.Signature, *types.Chan:
		return true
	case *types.Pointer:
		return mayHoldHandle(u.Elem())
	case *types.Slice:
		return mayHoldHandle(u.Elem())
	case *types.Array:
		return mayHoldHandle(u.Elem())
	case *types.Map:
		return mayHoldHandle(u.Key()) || mayHoldHandle(u.Elem())
	case *types.Struct:
		if named, ok := typ.(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "time" {
			return false // time.Time, time.Duration's kin: plain values
		}
		for i := 0; i < u.NumFields(); i++ {
			if mayHoldHandle(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// sameShape reports whether two signatures take and return the same
// types (receivers aside: a method value has its method's shape).
func sameShape(a, b *types.Signature) bool {
	if a.Variadic() != b.Variadic() || a.Params().Len() != b.Params().Len() || a.Results().Len() != b.Results().Len() {
		return false
	}
	for i := 0; i < a.Params().Len(); i++ {
		if !types.Identical(a.Params().At(i).Type(), b.Params().At(i).Type()) {
			return false
		}
	}
	for i := 0; i < a.Results().Len(); i++ {
		if !types.Identical(a.Results().At(i).Type(), b.Results().At(i).Type()) {
			return false
		}
	}
	return true
}

// opaqueCall translates a call of an unknown function that cannot run
// SQL: arbitrary results, the arguments' memory havocked.
// Its results are inputs of the run, named after the function value
// (l.now()), so that a counterexample shows them.
func (t *translator) opaqueCall(f *frame, c *ssa.CallCommon, args []value) value {
	t.escape(args)
	return t.fresh(f.prefix+calleeName(c.Value)+"()", c.Signature().Results())
}

// calleeName names a function value for a trace: the field it was loaded
// from (now for l.now), else its SSA name.
func calleeName(v ssa.Value) string {
	if u, ok := v.(*ssa.UnOp); ok {
		if fa, ok := u.X.(*ssa.FieldAddr); ok {
			if p, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
				if st, ok := p.Elem().Underlying().(*types.Struct); ok && fa.Field < st.NumFields() {
					return st.Field(fa.Field).Name()
				}
			}
		}
	}
	if fl, ok := v.(*ssa.Field); ok {
		if st, ok := fl.X.Type().Underlying().(*types.Struct); ok && fl.Field < st.NumFields() {
			return st.Field(fl.Field).Name()
		}
	}
	return v.Name()
}
