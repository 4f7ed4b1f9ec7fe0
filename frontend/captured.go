package frontend

import (
	"fmt"

	"golang.org/x/tools/go/ssa"
)

// The variables a closure entry captures. A closure checked as an entry
// (the handler a factory returns: `Handler(db)` returning `func(w, r)`)
// starts with its captured variables arbitrary, but they hold what the
// factory left there — a setting it read and clamped (minKeep, from the
// environment, raised to 0), its own parameters —, which the model does
// not evaluate, and which a caller of the closure does not choose. A
// counterexample that reads one is therefore UNKNOWN naming the variable
// (independent tester adv16 fu2: a captured minKeep = -1 the factory
// never leaves made a false UNSAFE), as a package-level setting is
// (instr.go global), unless --config-inputs says a deployment's settings
// are inputs. Database handles and other objects are not values.

// markCaptured marks the scalars of binding b of free variable fv of
// closure entry fn as approximations (see above).
func (t *translator) markCaptured(fn *ssa.Function, fv *ssa.FreeVar, b value) {
	if t.l.cfg.ConfigInputs {
		return
	}
	file, line := t.l.position(fn.Pos())
	why := fmt.Sprintf("%s, which the closure at %s:%d captures from %s: its value is what the factory left there, which the model does not evaluate (not an input a caller chooses; --config-inputs takes it as one)",
		fv.Name(), file, line, factoryName(fn))
	if b.obj != nil && b.obj.kind == objPtr && b.obj.cell != nil {
		t.markApproxDeep(b.obj.cell, why, 0)
		return
	}
	markValueApprox(b, why)
}

// factoryName names the function that creates closure fn.
func factoryName(fn *ssa.Function) string {
	if p := fn.Parent(); p != nil {
		return p.Name()
	}
	return "its enclosing function"
}
