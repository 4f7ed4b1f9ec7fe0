package frontend

// The call graph of the module: callees (static calls, closures, interface
// dispatch to module methods that are not mocks) and what each function
// can do to the database through them (Reach).

import (
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// callees returns the module functions fn may call: static callees,
// its closures, and module methods an interface call may dispatch to.
func (l *Loaded) callees(fn *ssa.Function) []*ssa.Function {
	if out, ok := l.calleeCache[fn]; ok {
		return out
	}
	out := l.findCallees(fn)
	l.calleeCache[fn] = out
	return out
}

// findCallees computes callees.
func (l *Loaded) findCallees(fn *ssa.Function) []*ssa.Function {
	escaping := l.escapingFuncs()
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var c *ssa.CallCommon
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				c = instr.Common()
			case *ssa.MakeClosure:
				// (A closure that escapes is an entry of its own.)
				// (A closure only kept in a closed field runs where the
				// field is called: see fieldfuncs.go.)
				if f, ok := instr.Fn.(*ssa.Function); ok && !escaping[l.unwrap(f)] && !l.storedOnly(instr) {
					out = append(out, f)
					if m := l.unwrap(f); m != f && l.inModule(m) {
						out = append(out, m) // a method value: the method itself
					}
				}
				continue
			default:
				// Function values taken as operands (method values, funcs),
				// except those kept in a closed field (called through it).
				// A DebugRef names a value another instruction uses.
				if st, ok := instr.(*ssa.Store); ok && l.storeIntoClosed(st, st.Val) {
					continue
				}
				if _, ok := instr.(*ssa.DebugRef); ok {
					continue
				}
				for _, op := range instr.Operands(nil) {
					if f, ok := (*op).(*ssa.Function); ok && l.inModule(f) && !escaping[f] {
						out = append(out, f)
					}
				}
				continue
			}
			if f := c.StaticCallee(); f != nil {
				if l.inModule(f) {
					out = append(out, f)
				}
			} else if c.IsInvoke() {
				out = append(out, l.invokeCallees(c)...)
			} else if fns, ok := l.fieldCallees(c.Value); ok {
				out = append(out, fns...)
			} else if fns, ok := l.tableCallees(c.Value); ok {
				out = append(out, fns...)
			}
			for _, a := range c.Args {
				if f, ok := a.(*ssa.Function); ok && l.inModule(f) && !escaping[f] {
					out = append(out, f)
				}
			}
		}
	}
	// Escaping values fn runs all the same (runvalues.go).
	return append(out, l.runEscaping(fn, escaping)...)
}

// invokeCallees returns the module methods an interface call may run:
// on a closed adapter field, its adapters' methods and the functions
// stored there, which they call (adapterfields.go); else every
// implementation of the method.
func (l *Loaded) invokeCallees(c *ssa.CallCommon) []*ssa.Function {
	ads, methods, ok := l.adapterCalls(c.Value, c.Method)
	if !ok {
		return l.implementations(c.Method)
	}
	out := slices.Clone(methods)
	for _, a := range ads {
		out = append(out, a.fn)
	}
	return out
}

// implementations returns the module methods that implement m.
func (l *Loaded) implementations(m *types.Func) []*ssa.Function {
	iface, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if out, ok := l.implCache[m]; ok {
		return out
	}
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for p := range l.module {
		for _, mem := range p.Members {
			tm, ok := mem.(*ssa.Type)
			if !ok {
				continue
			}
			for _, t := range []types.Type{tm.Type(), types.NewPointer(tm.Type())} {
				if _, isIface := t.Underlying().(*types.Interface); isIface {
					continue
				}
				if !types.Implements(t, iface) || isMock(tm.Type()) {
					continue
				}
				sel := l.Prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
				if sel == nil {
					continue
				}
				f := l.unwrap(l.Prog.MethodValue(sel))
				if f != nil && l.inModule(f) && !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	l.implCache[m] = out
	return out
}

// mockPackages are the packages of test-double generators: a type with a
// field from one (gomock's Controller, testify's Mock) is a mock that
// tests create, never the dynamic type of an interface in a real run.
var mockPackages = map[string]bool{
	"github.com/golang/mock/gomock":      true,
	"go.uber.org/mock/gomock":            true,
	"github.com/stretchr/testify/mock":   true,
	"github.com/gojuno/minimock/v3":      true,
	"github.com/vektra/mockery/v2/mocks": true,
}

// isMock reports whether t is a generated test double.
func isMock(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if n, ok := ft.(*types.Named); ok && n.Obj().Pkg() != nil && mockPackages[n.Obj().Pkg().Path()] {
			return true
		}
	}
	return false
}

// Reach describes what a function can do to the database, directly or
// through its callees.
type Reach struct {
	Tables     map[string]bool // tables it may write
	UnknownSQL bool            // it may run SQL whose text is not known
	Reads      bool            // it may run SQL that only reads
}

// reach computes Reach for every module function (a fixpoint over callees).
func (l *Loaded) reach() map[*ssa.Function]*Reach {
	if l.reachCache != nil {
		return l.reachCache
	}
	fns := l.allModuleFunctions()
	r := map[*ssa.Function]*Reach{}
	calls := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range fns {
		t, u, rd := l.writes(fn)
		r[fn] = &Reach{Tables: t, UnknownSQL: u, Reads: rd}
		calls[fn] = l.callees(fn)
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			me := r[fn]
			for _, c := range calls[fn] {
				rc := r[c]
				if rc == nil {
					continue
				}
				for t := range rc.Tables {
					if !me.Tables[t] {
						me.Tables[t] = true
						changed = true
					}
				}
				if rc.UnknownSQL && !me.UnknownSQL {
					me.UnknownSQL = true
					changed = true
				}
				if rc.Reads && !me.Reads {
					me.Reads = true
					changed = true
				}
			}
		}
	}
	l.reachCache = r
	return r
}

// unwrap maps a synthetic method wrapper (bound method, thunk) to the
// method it calls.
func (l *Loaded) unwrap(fn *ssa.Function) *ssa.Function {
	if fn == nil || fn.Synthetic == "" {
		return fn
	}
	if f, ok := fn.Object().(*types.Func); ok {
		if m := l.Prog.FuncValue(f); m != nil {
			return m
		}
	}
	return fn
}

// RunsUnknownSQL reports whether some module function may run SQL whose
// text is not known (built at run time, prepared elsewhere, run by a
// library).
func (l *Loaded) RunsUnknownSQL() bool {
	for _, r := range l.reach() {
		if r.UnknownSQL {
			return true
		}
	}
	return false
}

// ReachesWrite reports whether fn may write table (or run unknown SQL).
func (l *Loaded) ReachesWrite(fn *ssa.Function, table string) bool {
	rc := l.reach()[fn]
	return rc != nil && (rc.UnknownSQL || rc.Tables[strings.ToLower(table)])
}
