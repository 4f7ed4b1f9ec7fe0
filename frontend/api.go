package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
)

// The database libraries the front end models are described in package
// dblib; this file adapts its descriptions to the translator's values.

// apiCall is a call of a modelled library method or function (dblib.Call)
// with the types of its arguments.
type apiCall struct {
	dblib.Call
	// argTypes are the arguments' types (before conversion to any).
	argTypes []types.Type
}

// kind is the object kind of the handle the call is on (objNil: none).
func (a apiCall) kind() objKind {
	if a.Kind == dblib.NoHandle {
		return objNil
	}
	return objKind(a.Kind)
}

// argType returns the type of argument i, or nil.
func (a apiCall) argType(i int) types.Type {
	if i >= 0 && i < len(a.argTypes) {
		return a.argTypes[i]
	}
	return nil
}

// runsCallback reports whether the call is a library function that runs
// the function it is given inside itself (pgx.BeginFunc): the function is
// inlined there, not an entry point of its own.
func (a apiCall) runsCallback() bool { return a.Callback }

// dbObjectKind classifies the handle types of the modelled libraries.
func dbObjectKind(t types.Type) (objKind, bool) {
	k, ok := dblib.KindOf(t)
	return objKind(k), ok
}

// libFunc returns the library function or method f stands for, following
// promoted-method wrappers (sqlx.DB embeds *sql.DB).
func libFunc(fn *ssa.Function) *types.Func {
	if fn == nil {
		return nil
	}
	f, ok := fn.Object().(*types.Func)
	if !ok || f.Pkg() == nil || !dblib.IsLibraryPackage(f.Pkg().Path()) {
		return nil
	}
	return f
}

// staticAPICall classifies a static call (or a call of a function value
// fn) of a library function or method; sig is the call's signature (nil:
// the function's).
func staticAPICall(fn *ssa.Function, sig *types.Signature) (apiCall, bool) {
	c, ok := dblib.Resolve(libFunc(fn), sig)
	return apiCall{Call: c}, ok
}
