package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// An HTTP handler has no error result (or, with echo, returns nil after
// answering): it refuses a request by answering an error status. An
// entry that is a handler — net/http's (w http.ResponseWriter,
// r *http.Request), gin's (c *gin.Context), echo's (c echo.Context)
// error — gets a flag "answered an error status", false on entry and set
// by each call that answers a status of 400 or more, as one of its
// ErrResults: what needs a request to have succeeded (the
// order-dependence finding: both requests succeed in either order) sees
// a handler's refusal. The calls: http.Error(w, msg, code) and
// http.NotFound; w.WriteHeader(code); gin's c.JSON(code, …), c.String,
// c.AbortWithStatus(JSON), c.Status and the other renderers taking the
// code first; echo's c.JSON(code, …), c.NoContent(code) and the like. A
// status the code computes sets the flag where it is 400 or more. adv8
// F10: a guarded withdrawal that answers 409 when its UPDATE matched no
// row was taken to succeed, and two withdrawals of 2 and 1 from a
// balance of 2 were reported as not commuting "both succeed in either
// order"; http.Error was recognised, w.WriteHeader(http.StatusConflict)
// and gin's c.JSON(409, …) were not.

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

// statusArg is, by package path and function or method name, the index
// among a call's arguments (the receiver first, for a method) of the HTTP
// status it answers; -1: a fixed error status (http.NotFound).
var statusArg = map[string]map[string]int{
	"net/http": {"Error": 2, "NotFound": -1, "WriteHeader": 1},
	"github.com/gin-gonic/gin": {
		"JSON": 1, "IndentedJSON": 1, "SecureJSON": 1, "JSONP": 1, "AsciiJSON": 1, "PureJSON": 1,
		"XML": 1, "YAML": 1, "TOML": 1, "ProtoBuf": 1, "String": 1, "Data": 1, "DataFromReader": 1,
		"HTML": 1, "Status": 1, "AbortWithStatus": 1, "AbortWithStatusJSON": 1, "AbortWithError": 1,
	},
	"github.com/labstack/echo/v4": {
		"JSON": 1, "JSONPretty": 1, "JSONBlob": 1, "JSONP": 1, "JSONPBlob": 1, "XML": 1, "XMLPretty": 1,
		"XMLBlob": 1, "String": 1, "HTML": 1, "HTMLBlob": 1, "Blob": 1, "Stream": 1, "NoContent": 1,
	},
}

// httpStatusCall records, in the entry's flag, a call of package path's
// function or method name with arguments args (the receiver first) that
// answers an error status.
func (t *translator) httpStatusCall(path, name string, args []value) {
	if t.httpFailed == nil {
		return
	}
	i, ok := statusArg[path][name]
	if !ok {
		return
	}
	var refused ir.Expr = ir.True
	if i >= 0 {
		if i >= len(args) {
			return
		}
		code := args[i].expr
		if code == nil || code.Sort() != ir.Int {
			return
		}
		refused = ir.Cmp(ir.OpGe, code, ir.IntLit(400))
	}
	t.emit(&ir.Assign{Lhs: []*ir.Var{t.httpFailed}, Rhs: []ir.Expr{ir.Or(t.httpFailed, refused)}})
}

// isHandlerSignature: the last two parameters are an http.ResponseWriter
// and an *http.Request (net/http), or the only parameter is a
// *gin.Context (gin) or an echo.Context (echo).
func isHandlerSignature(sig *types.Signature) bool {
	n := sig.Params().Len()
	named := func(t types.Type, path, name string) bool {
		nt, ok := t.(*types.Named)
		return ok && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == path && nt.Obj().Name() == name
	}
	if n == 1 {
		p := sig.Params().At(0).Type()
		if ptr, ok := p.(*types.Pointer); ok && named(ptr.Elem(), "github.com/gin-gonic/gin", "Context") {
			return true
		}
		return named(p, "github.com/labstack/echo/v4", "Context")
	}
	if n < 2 {
		return false
	}
	req, ok := sig.Params().At(n - 1).Type().(*types.Pointer)
	return ok && named(req.Elem(), "net/http", "Request") && named(sig.Params().At(n-2).Type(), "net/http", "ResponseWriter")
}
