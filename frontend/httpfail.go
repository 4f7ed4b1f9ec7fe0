package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// An HTTP handler has no error result: it refuses a request by answering
// an error status, http.Error(w, msg, code). An entry that is a handler
// (its last parameters an http.ResponseWriter and an *http.Request) gets
// a flag "answered with http.Error", false on entry and set by each call
// of http.Error, as one of its ErrResults: what needs a request to have
// succeeded (the order-dependence finding: both requests succeed in
// either order) sees a handler's refusal. adv8 F10: a guarded withdrawal
// that answers 409 when its UPDATE matched no row was taken to succeed,
// and two withdrawals of 2 and 1 from a balance of 2 were reported as
// not commuting "both succeed in either order".

// handlerFailFlag gives the entry fn, if a handler, its flag.
func (t *translator) handlerFailFlag(fn *ssa.Function) {
	if !isHandlerSignature(fn.Signature) {
		return
	}
	v := t.p.NewVar(fn.Name()+".httpError", ir.Bool, ir.Ghost)
	t.httpFailed = v
	t.p.ErrResults = append(t.p.ErrResults, v)
	t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{ir.False}})
}

// httpErrorCall records a call of net/http.Error in the entry's flag.
func (t *translator) httpErrorCall(path, name string) {
	if t.httpFailed != nil && path == "net/http" && name == "Error" {
		t.emit(&ir.Assign{Lhs: []*ir.Var{t.httpFailed}, Rhs: []ir.Expr{ir.True}})
	}
}

// isHandlerSignature: the last two parameters are an http.ResponseWriter
// and an *http.Request.
func isHandlerSignature(sig *types.Signature) bool {
	n := sig.Params().Len()
	if n < 2 {
		return false
	}
	named := func(t types.Type, name string) bool {
		nt, ok := t.(*types.Named)
		return ok && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == "net/http" && nt.Obj().Name() == name
	}
	req, ok := sig.Params().At(n - 1).Type().(*types.Pointer)
	return ok && named(req.Elem(), "Request") && named(sig.Params().At(n-2).Type(), "ResponseWriter")
}
