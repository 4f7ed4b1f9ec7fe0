package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Error constructors and wrappers of the standard library and of the
// common error packages. An error is the boolean "is non-nil":
//
//   - constructors (errors.New, fmt.Errorf, Errorf/Newf/… of pkg/errors,
//     xerrors and cockroachdb/errors) are non-nil, with or without %w;
//   - wrappers (Wrap, Wrapf, WithStack, WithMessage, Mark, …) are nil
//     exactly when the wrapped error is nil, as these packages document;
//   - Cause / UnwrapAll return the innermost error: nil exactly when the
//     argument is;
//   - errors.Join and CombineErrors are nil when every argument is;
//   - Is / As are arbitrary, but true only for a non-nil error, and
//     marked approximations (errapprox.go);
//   - Unwrap is arbitrary, and so is a Join of errors the model does not
//     see: marked approximations.
type errPkg uint8

const (
	errStd errPkg = iota + 1
	errPkgErrors
	errXerrors
	errCockroach
)

func errorPackage(path string) errPkg {
	switch path {
	case "errors":
		return errStd
	case "github.com/pkg/errors":
		return errPkgErrors
	case "golang.org/x/xerrors":
		return errXerrors
	case "github.com/cockroachdb/errors":
		return errCockroach
	}
	if strings.HasPrefix(path, "github.com/cockroachdb/errors/") {
		return errCockroach
	}
	return 0
}

// errorWrappers are the functions that return nil for a nil first
// argument and a non-nil error otherwise.
var errorWrappers = map[string]bool{
	"Wrap": true, "Wrapf": true, "WithStack": true, "WithStackDepth": true,
	"WithMessage": true, "WithMessagef": true, "WrapWithDepth": true, "WrapWithDepthf": true,
	"WithDetail": true, "WithDetailf": true, "WithHint": true, "WithHintf": true,
	"WithSafeDetails": true, "WithDomain": true, "WithTelemetry": true,
	"WithIssueLink": true, "WithContextTags": true, "WithSecondaryError": true,
	"Mark": true, "Handled": true, "HandledWithMessage": true, "HandledWithMessagef": true,
	"Cause": true, "UnwrapAll": true,
}

// errorsCall models a function of an error package; ok is false for the
// functions it leaves to the generic model of outside code.
// text is the call as the source writes it, for approximation notes;
// libTarget: the call is errors.As into a type declared outside the
// module (a driver's error type, libraryErrorTarget).
func (t *translator) errorsCall(path, name, text string, libTarget bool, args []value, results *types.Tuple) (value, bool) {
	if path == "fmt" && name == "Errorf" {
		return value{expr: ir.True}, true
	}
	pkg := errorPackage(path)
	if pkg == 0 || results.Len() != 1 {
		return value{}, false
	}
	isErrResult := isError(results.At(0).Type())
	errArg := func(i int) ir.Expr {
		if i < len(args) && args[i].expr != nil && args[i].expr.Sort() == ir.Bool {
			return args[i].expr
		}
		return nil
	}
	switch {
	case name == "As" && libTarget:
		// Whether the database's error is a driver's error type (a
		// serialization failure's *pgconn.PgError) is the database's
		// choice, an input: arbitrary, true only for a non-nil error.
		b := t.freshVar(name+"()", ir.Bool, ir.KindCall)
		if e := errArg(0); e != nil {
			t.emit(&ir.Assume{Cond: ir.Implies(b, e), Info: t.info(ir.KindModel, "")})
		}
		return value{expr: b}, true
	case name == "Is" || name == "As" || name == "IsAny" || name == "HasType" || name == "HasInterface":
		return value{expr: t.approxWhereNonNil(name+"()", errArg(0), t.errTestWhy(text))}, true
	case !isErrResult:
		return value{}, false
	case name == "New" || name == "Errorf" || name == "Newf" || strings.HasPrefix(name, "AssertionFailed") ||
		strings.HasPrefix(name, "NewWithDepth") || strings.HasPrefix(name, "Unimplemented"):
		return value{expr: ir.True}, true
	case errorWrappers[name] && pkg != errStd && pkg != errXerrors:
		if e := errArg(0); e != nil {
			return value{expr: e}, true
		}
	case name == "CombineErrors" && pkg == errCockroach:
		if a, b := errArg(0), errArg(1); a != nil && b != nil {
			return value{expr: ir.Or(a, b)}, true
		}
	case name == "Join" && pkg == errStd:
		if len(args) == 1 {
			if elems := t.sliceElems(args[0]); elems != nil {
				var xs []ir.Expr
				var tags []*errTag
				for _, e := range elems {
					if e.expr == nil || e.expr.Sort() != ir.Bool {
						return t.approxErrResult(name, text, results), true
					}
					xs = append(xs, e.expr)
					tags = append(tags, e.err)
				}
				return value{expr: ir.Or(xs...), err: wrapsAll(tags)}, true
			}
		}
	}
	return t.approxErrResult(name, text, results), true
}

// approxErrResult is the arbitrary result of error function name (call
// text) that the model does not evaluate: an error result's nil-ness is a
// marked approximation.
func (t *translator) approxErrResult(name, text string, results *types.Tuple) value {
	v := t.fresh(name+"()", results)
	if x, ok := v.expr.(*ir.Var); ok && x.Sort() == ir.Bool {
		x.Approx = fmt.Sprintf("whether %s at %s is nil, which the model does not decide (the errors it is made of are not tracked there)", text, t.posString(t.pos))
	}
	return v
}
