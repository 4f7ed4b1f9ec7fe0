package frontend

import (
	"golang.org/x/tools/go/ssa"
)

// Function values that leave the code the translation follows.
//
// A module function used as a value (a method value h.Withdraw, a
// closure, a named function) runs where the translation inlines it only
// when the value is called directly or handed to module code that calls
// it. A value that is stored (a struct field, a map of operations, a
// global), returned (a handler factory), sent, or passed to code outside
// the module (an HTTP router's POST, a job queue) may be called at any
// time by code the analysis does not see: such a function is an entry
// point of its own, verified from any state with arbitrary arguments and
// captured variables — except a function kept in a closed field (an
// unexported func field only called; see fieldfuncs.go), which runs
// where the field is called.

// escapingFuncs returns the module functions whose value escapes in that
// sense: each is an entry point of its own.
func (l *Loaded) escapingFuncs() map[*ssa.Function]bool {
	if l.escapeCache != nil {
		return l.escapeCache
	}
	e := &funcEscape{l: l, params: map[paramKey]bool{}, busy: map[paramKey]bool{}, results: map[*ssa.Function]bool{}}
	out := map[*ssa.Function]bool{}
	mark := func(f *ssa.Function) {
		if f = l.unwrap(f); f != nil && l.inModule(f) {
			out[f] = true
		}
	}
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if e.valueEscapes(mc) {
						mark(mc.Fn.(*ssa.Function))
					}
					// Functions bound into the closure: see useEscapes.
					for _, bv := range mc.Bindings {
						if f, ok := bv.(*ssa.Function); ok && e.useEscapes(mc, f) {
							mark(f)
						}
					}
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					f, ok := (*op).(*ssa.Function)
					if !ok || f.Synthetic == "package initializer" {
						continue
					}
					if e.useEscapes(instr, f) {
						mark(f)
					}
				}
			}
		}
	}
	l.escapeCache = out
	return out
}

// funcEscape decides whether function values escape, following them into
// the module functions they are passed to.
type funcEscape struct {
	l      *Loaded
	params map[paramKey]bool // memo: does the parameter's value escape
	busy   map[paramKey]bool // parameters being decided (recursion)
	// calls lists the static call sites of each module function; asValue
	// the functions also used as values (see returnEscapes).
	calls   map[*ssa.Function][]ssa.CallInstruction
	asValue map[*ssa.Function]bool
	results map[*ssa.Function]bool // memo of returnEscapes
}

// paramKey is a parameter (or a free variable, free = true) of fn.
type paramKey struct {
	fn   *ssa.Function
	i    int
	free bool
}

// valueEscapes reports whether some use of v lets it escape.
func (e *funcEscape) valueEscapes(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if e.useEscapes(r, v) {
			return true
		}
	}
	return false
}

// useEscapes reports whether instr's use of the function value v lets it
// escape.
func (e *funcEscape) useEscapes(instr ssa.Instruction, v ssa.Value) bool {
	switch instr := instr.(type) {
	case *ssa.DebugRef, *ssa.BinOp, *ssa.If:
		return false // names, comparisons with nil
	case *ssa.MakeInterface:
		return e.valueEscapes(instr)
	case *ssa.ChangeType:
		return e.valueEscapes(instr)
	case *ssa.Convert:
		return e.valueEscapes(instr)
	case *ssa.ChangeInterface:
		return e.valueEscapes(instr)
	case *ssa.TypeAssert:
		return e.valueEscapes(instr)
	case *ssa.Phi:
		return e.valueEscapes(instr)
	case *ssa.MakeClosure:
		// A function captured by a closure escapes with the closure, or
		// through the closure's own uses of it.
		if e.valueEscapes(instr) {
			return true
		}
		fn, _ := instr.Fn.(*ssa.Function)
		for i, b := range instr.Bindings {
			if b == v && fn != nil && e.paramEscapes(paramKey{fn: fn, i: i, free: true}) {
				return true
			}
		}
		return false
	case ssa.CallInstruction:
		return e.argEscapes(instr.Common(), v)
	case *ssa.Extract:
		return e.valueEscapes(instr)
	case *ssa.Return:
		return e.returnEscapes(instr.Parent())
	case *ssa.Store:
		// Kept in an unexported field that is only called: the calls
		// through the field run it (see fieldfuncs.go).
		if e.l.storeIntoClosed(instr, v) {
			return false
		}
	case *ssa.MapUpdate:
		// A table of operations local to a dispatcher
		// (ops := map[string]func(…){…}; ops[name](…)): the functions
		// escape only if a value looked up does.
		if m, ok := instr.Map.(*ssa.MakeMap); ok && instr.Value == v && mapLiteral(m) {
			for _, r := range *m.Referrers() {
				if l, ok := r.(*ssa.Lookup); ok && e.valueEscapes(l) {
					return true
				}
			}
			return false
		}
	}
	// Stored, sent, appended, put in a map or a slice literal.
	return true
}

// returnEscapes reports whether a value fn returns may reach code the
// analysis does not follow: fn is exported, a method or a closure (its
// callers are not all known), or is itself used as a value, or a call of
// it lets its result escape. An unexported factory whose closure is only
// called by its callers (credit := makeCredit(db); credit(id, 5)) keeps
// the closure inside the code the translation inlines.
func (e *funcEscape) returnEscapes(fn *ssa.Function) bool {
	if r, ok := e.results[fn]; ok {
		return r
	}
	if e.calls == nil {
		e.indexCalls()
	}
	e.results[fn] = false // a recursive call adds no new use
	r := fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Object() == nil ||
		fn.Object().Exported() && fn.Pkg.Pkg.Name() != "main" || e.asValue[fn] || len(e.calls[fn]) == 0
	for _, c := range e.calls[fn] {
		if r {
			break
		}
		if v := c.Value(); v != nil {
			r = e.valueEscapes(v)
		}
	}
	e.results[fn] = r
	return r
}

// indexCalls records every static call of a module function and every
// other use of one as a value.
func (e *funcEscape) indexCalls() {
	e.calls = map[*ssa.Function][]ssa.CallInstruction{}
	e.asValue = map[*ssa.Function]bool{}
	var ops []*ssa.Value
	for _, fn := range e.l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() != nil && !c.Common().IsInvoke() {
					if _, isFn := c.Common().Value.(*ssa.Function); isFn {
						callee := c.Common().StaticCallee()
						e.calls[callee] = append(e.calls[callee], c)
					}
				}
				if _, ok := instr.(*ssa.DebugRef); ok {
					continue // a name, not a use
				}
				for i, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok {
						if c, isCall := instr.(ssa.CallInstruction); isCall && i == 0 && c.Common().Value == f {
							continue // the called function itself
						}
						e.asValue[f] = true
					}
				}
			}
		}
	}
}

// argEscapes reports whether passing v in call c lets it escape. A value
// that is only the called function is a direct call.
func (e *funcEscape) argEscapes(c *ssa.CallCommon, v ssa.Value) bool {
	var idx []int
	for i, a := range c.Args {
		if a == v {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return false // v is called
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return true // append(handlers, h)
	}
	if c.IsInvoke() {
		impls := e.l.implementations(c.Method)
		if len(impls) == 0 {
			return true // code outside the module
		}
		for _, impl := range impls {
			for _, i := range idx {
				if e.paramEscapes(paramKey{fn: impl, i: i + 1}) { // (+1: the receiver)
					return true
				}
			}
		}
		return false
	}
	callee := c.StaticCallee()
	if callee == nil {
		return true // a call through a function value: unknown code
	}
	if a, ok := staticAPICall(callee, nil); ok && a.runsCallback() {
		return false // runs it inside the call, where it is inlined
	}
	if spawnsArgument(callee) {
		return false // errgroup's Go: a goroutine started there, where it is translated
	}
	callee = e.l.unwrap(callee)
	if !e.l.inModule(callee) {
		return true
	}
	for _, i := range idx {
		if e.paramEscapes(paramKey{fn: callee, i: i}) {
			return true
		}
	}
	return false
}

// paramEscapes reports whether the function value received as parameter
// (or free variable) k escapes from k.fn.
func (e *funcEscape) paramEscapes(k paramKey) bool {
	if r, ok := e.params[k]; ok {
		return r
	}
	if e.busy[k] {
		return false // a cycle adds no new use
	}
	var v ssa.Value
	switch {
	case k.free && k.i < len(k.fn.FreeVars):
		v = k.fn.FreeVars[k.i]
	case !k.free && k.i < len(k.fn.Params):
		v = k.fn.Params[k.i]
	default:
		return true
	}
	e.busy[k] = true
	r := e.valueEscapes(v)
	delete(e.busy, k)
	e.params[k] = r
	return r
}
