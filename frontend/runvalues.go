package frontend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Function values a function runs although they escape.
//
// A function whose value escapes is an entry of its own (funcvalues.go),
// and the call graph leaves it out of the callees of the function that
// makes the value: a factory that returns a handler does not run it. But
// a function may both make the value and run it through a helper that
// wraps it (f := WithRetry(s.chargeback); f(ctx, id, amt)): the value
// escapes (WithRetry, exported, returns a closure holding it), and Batch
// runs it too. Such a value is a callee of the function that runs it, so
// that Batch is an entry (it writes) and its verdict covers chargeback;
// so is the closure the helper returns, where the caller runs it.

// maxRunDepth bounds how far runsValue follows a value through parameters,
// results and captured variables.
const maxRunDepth = 8

// runFlow decides whether function values are run, following them into
// the module functions they are passed to and out of the results those
// return.
type runFlow struct {
	l    *Loaded
	busy map[ssa.Value]bool // values being decided (recursion)
}

// runEscaping returns the escaping module functions fn runs: those whose
// values fn makes and then runs (directly or through module helpers), and
// the ones module functions fn calls make and return to fn, which runs
// them.
func (l *Loaded) runEscaping(fn *ssa.Function, escaping map[*ssa.Function]bool) []*ssa.Function {
	r := &runFlow{l: l, busy: map[ssa.Value]bool{}}
	var out []*ssa.Function
	add := func(f *ssa.Function) {
		out = append(out, f)
		if m := l.unwrap(f); m != f && l.inModule(m) {
			out = append(out, m) // a method value: the method itself
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if f, v := escapingValue(l, instr, escaping); f != nil && r.runs(v, nil, 0) {
				add(f)
			}
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			g := c.Call.StaticCallee()
			if g == nil || !l.inModule(g) || g == fn {
				continue
			}
			callerRuns := func(depth int) bool { return r.runs(c, nil, depth) }
			for _, gb := range g.Blocks {
				for _, gi := range gb.Instrs {
					if f, v := escapingValue(l, gi, escaping); f != nil && r.runs(v, callerRuns, 0) {
						add(f)
					}
				}
			}
		}
	}
	return out
}

// escapingValue returns the escaping module function instr makes a value
// of (a closure, a bound method value), and that value.
func escapingValue(l *Loaded, instr ssa.Instruction, escaping map[*ssa.Function]bool) (*ssa.Function, ssa.Value) {
	mc, ok := instr.(*ssa.MakeClosure)
	if !ok {
		return nil, nil
	}
	f, ok := mc.Fn.(*ssa.Function)
	if !ok || !escaping[l.unwrap(f)] {
		return nil, nil
	}
	return f, mc
}

// runs reports whether the function value v (or the local variable v
// addresses), a value of some function g,
// is called while g runs, or is returned by g when ret reports that g's
// caller runs g's result (ret nil: no caller is followed).
func (r *runFlow) runs(v ssa.Value, ret func(depth int) bool, depth int) bool {
	if depth > maxRunDepth || r.busy[v] {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	r.busy[v] = true
	defer delete(r.busy, v)
	for _, u := range *refs {
		if r.useRuns(u, v, ret, depth) {
			return true
		}
	}
	return false
}

// useRuns reports whether the use u of the function value v runs it (see
// runs).
func (r *runFlow) useRuns(u ssa.Instruction, v ssa.Value, ret func(int) bool, depth int) bool {
	switch u := u.(type) {
	case *ssa.ChangeType:
		return r.runs(u, ret, depth+1)
	case *ssa.Phi:
		return r.runs(u, ret, depth+1)
	case *ssa.Store:
		// Kept in a local variable (a parameter a closure captures is
		// boxed): run where a load of it is.
		if a, ok := u.Addr.(*ssa.Alloc); ok && u.Val == v {
			return r.runs(a, ret, depth+1)
		}
		return false
	case *ssa.UnOp:
		// A load of the variable v addresses.
		return u.Op == token.MUL && r.runs(u, ret, depth+1)
	case *ssa.Return:
		return ret != nil && len(u.Results) == 1 && ret(depth+1)
	case *ssa.MakeClosure:
		// Captured: run when the closure runs and calls it.
		cf, ok := u.Fn.(*ssa.Function)
		if !ok {
			return false
		}
		for i, b := range u.Bindings {
			if b == v && i < len(cf.FreeVars) && r.runs(cf.FreeVars[i], nil, depth+1) && r.runs(u, ret, depth+1) {
				return true
			}
		}
		return false
	case ssa.CallInstruction:
		return r.callRuns(u, v, ret, depth)
	}
	return false
}

// callRuns reports whether the call u runs v: v is the function called,
// or an argument the module callee runs or returns to a caller that runs
// it.
func (r *runFlow) callRuns(u ssa.CallInstruction, v ssa.Value, ret func(int) bool, depth int) bool {
	c := u.Common()
	if c.IsInvoke() {
		return false
	}
	if c.Value == v {
		return true
	}
	g := c.StaticCallee()
	if g == nil || !r.l.inModule(g) {
		return false
	}
	for i, a := range c.Args {
		if a != v || i >= len(g.Params) {
			continue
		}
		var back func(int) bool
		if res := u.Value(); res != nil {
			back = func(d int) bool { return r.runs(res, ret, d) }
		}
		if r.runs(g.Params[i], back, depth+1) {
			return true
		}
	}
	return false
}
