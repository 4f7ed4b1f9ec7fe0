package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// What a call outside the analysed code leaves in the program's own data
// it receives a pointer to (issue 8). Such a call may write any value
// there, or none, or refuse the values it finds through its error (a
// validator of a dependency the model does not know: ozzo's Validatable,
// validator's StructPartial, a service's own checks package). Its error
// decides the path, so a counterexample that took "no error" with the
// values the call would have refused was a false UNSAFE. The values the
// cells hold after the call are therefore approximations naming the
// call: a counterexample whose conditions read them is UNKNOWN; one that
// only stores them in a column stays exact.
//
// Exceptions, where the values are the run's inputs: the body decoders
// (encoding/json, gin's binding) and the functions that parse text or a
// stream into their pointer arguments (fmt's Sscan family, Unmarshal,
// Decode, Read): what they write is any value the input text can say.
// A receiver (an outside type's own state) and cells of types declared
// outside the module are left as before. The error and the other results
// stay free choices: measured on the corpus, marking them as well moved
// one more UNSAFE (math/rand.Int63n's result) and would make every
// success path through an outside call (a hash, an id generator) UNKNOWN.

// approxOutsideWrites marks the program's cells that the pointer
// arguments of a call of fn (outside the module) reach.
func (t *translator) approxOutsideWrites(fn *ssa.Function, args []value) {
	if parsesInput(fn) {
		return
	}
	if fn.Signature.Recv() != nil && len(args) > 0 {
		args = args[1:]
	}
	for _, a := range args {
		if a.obj == nil || a.obj.kind != objPtr || a.obj.cell == nil || a.obj.cell.untracked {
			continue
		}
		c := a.obj.cell
		if !t.programData(c.typ) {
			continue
		}
		why := fmt.Sprintf("%s after %s (%s), which is not analysed: it may have written it, or refused it through its error", c.name, calleeText(fn), t.posString(t.pos))
		t.havocApprox(c, why, 0)
	}
}

// programData reports whether a cell of typ holds the program's own data:
// a basic value, or a type the module declares.
func (t *translator) programData(typ types.Type) bool {
	switch u := typ.(type) {
	case *types.Basic:
		return true
	case *types.Named:
		if u.Obj().Pkg() == nil {
			return false
		}
		if _, ok := u.Underlying().(*types.Basic); ok {
			return true
		}
		return t.l.declaredInModule(u.Obj().Pkg())
	}
	return false
}

// parsesInput reports whether fn decodes or parses its input into its
// pointer arguments (a body decoder, fmt's scanning, an Unmarshal, a
// Decode, a Read).
func parsesInput(fn *ssa.Function) bool {
	if _, ok := bodyDecoders[fn.String()]; ok {
		return true
	}
	name := fn.Name()
	for _, prefix := range []string{"Sscan", "Fscan", "Scan", "Unmarshal", "Decode", "Read", "Bind", "ShouldBind", "Parse"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// calleeText names an outside function for a message: pkg.F or
// (T).M.
func calleeText(fn *ssa.Function) string {
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), (*types.Package).Name) + ")." + fn.Name()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Name() + "." + fn.Name()
	}
	return fn.Name()
}
