package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Function adapters kept in unexported interface fields.
//
// The http.HandlerFunc pattern applied to a repository:
//
//	type DebiterFunc func(ctx context.Context, id, cents int64) error
//	func (f DebiterFunc) Debit(ctx context.Context, id, cents int64) error { return f(ctx, id, cents) }
//	…
//	return &Service{debiter: DebiterFunc(func(…) error { UPDATE … })}
//	…
//	return s.debiter.Debit(ctx, id, amount) // in Withdraw, after its check
//
// The field is unexported, so as with a closed func field (fieldfuncs.go)
// no other package can read it or put another value there. When every
// value the package stores into such an interface field is a module
// function converted to a named func type (an adapter) or nil, and every
// read of the field is the receiver of a method call, the calls through
// the field are the only way the stored functions run. Then
//   - the stored functions are not entries of their own (the exported
//     function that calls through the field is, and covers them);
//   - a method call on the field runs the adapter type's method with one
//     of the stored functions as its receiver, or panics on nil.
//
// A field read otherwise, given any other value (a struct, a parameter,
// a call result), or never given a value in the package, is open: the general interface dispatch
// applies and the stored functions stay entries of their own.

// adapterFn is one value stored into a closed adapter field: the module
// function fn converted to the adapter type typ.
type adapterFn struct {
	typ types.Type
	fn  *ssa.Function
}

// adapterField returns the origin of fld if it is an unexported field of
// interface type, else nil.
func adapterField(fld *types.Var) *types.Var {
	if fld == nil || fld.Exported() {
		return nil
	}
	if _, ok := fld.Type().Underlying().(*types.Interface); !ok {
		return nil
	}
	return fld.Origin()
}

// indexAdapterUses records the adapters stored through the field address
// (or read from the field value) v and reports whether every use is such
// a store or a method call.
func (l *Loaded) indexAdapterUses(ff *fieldFuncs, fld *types.Var, v ssa.Value) bool {
	return fieldUses(v, onlyInvoked, func(val ssa.Value) bool {
		if c, ok := val.(*ssa.Const); ok && c.IsNil() {
			return true
		}
		mi, ok := val.(*ssa.MakeInterface)
		if !ok || !isFuncType(mi.X.Type()) {
			return false
		}
		fns, ok := l.storedValue(mi.X, 0)
		if !ok {
			return false
		}
		for _, f := range fns {
			a := adapterFn{typ: mi.X.Type(), fn: f}
			if !hasAdapter(ff.adapters[fld], a) {
				ff.adapters[fld] = append(ff.adapters[fld], a)
			}
		}
		return true
	})
}

// isFuncType reports whether t is a named type whose values are
// functions (an adapter type such as http.HandlerFunc).
func isFuncType(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return false
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// hasAdapter reports whether list holds a.
func hasAdapter(list []adapterFn, a adapterFn) bool {
	for _, b := range list {
		if b.fn == a.fn && types.Identical(b.typ, a.typ) {
			return true
		}
	}
	return false
}

// onlyInvoked reports whether the interface value v is only the receiver
// of method calls (or named, or compared with nil).
func onlyInvoked(v ssa.Value) bool { return onlyCallee(v, true) }

// closedAdapterField returns the field the interface value v is loaded
// from when that field is a closed adapter field.
func (l *Loaded) closedAdapterField(v ssa.Value) (*types.Var, bool) {
	fld := loadedField(v, adapterField)
	if fld == nil {
		return nil, false
	}
	// (A field the package never fills is left to the general dispatch.)
	ff := l.storedFuncs()
	return fld, ff.isAdapter[fld] && !ff.open[fld] && len(ff.adapters[fld]) > 0
}

// adapterCalls returns, for a method call on the interface value v loaded
// from a closed adapter field, the stored functions and the methods of
// their adapter types the call runs.
func (l *Loaded) adapterCalls(v ssa.Value, m *types.Func) ([]adapterFn, []*ssa.Function, bool) {
	fld, ok := l.closedAdapterField(v)
	if !ok {
		return nil, nil, false
	}
	ads := l.storedFuncs().adapters[fld]
	var methods []*ssa.Function
	for _, a := range ads {
		meth := l.adapterMethod(a.typ, m)
		if meth == nil {
			return nil, nil, false
		}
		methods = append(methods, meth)
	}
	return ads, methods, true
}

// adapterMethod returns the module method m of the adapter type typ, or
// nil.
func (l *Loaded) adapterMethod(typ types.Type, m *types.Func) *ssa.Function {
	sel := l.Prog.MethodSets.MethodSet(typ).Lookup(m.Pkg(), m.Name())
	if sel == nil {
		return nil
	}
	fn := l.unwrap(l.Prog.MethodValue(sel))
	if fn == nil || !l.inModule(fn) {
		return nil
	}
	return fn
}

// callAdapters translates a method call on a closed adapter field: nil
// panics, else the adapter type's method runs with one of the stored
// functions as its receiver, each on its branch. A stored closure's
// captured variables are arbitrary (set by the constructor, which ran
// before this entry), as in callStored.
func (t *translator) callAdapters(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, ads []adapterFn, methods []*ssa.Function, args []value) value {
	name := calleeName(c.Value) + "." + c.Method.Name()
	isNil := t.freshVar(calleeName(c.Value)+" == nil", ir.Bool, ir.KindModel)
	t.panicIf(isNil, "panic: method call on a nil interface")
	run := func(i int) value {
		o := &object{kind: objFunc, fn: ads[i].fn}
		for _, fv := range ads[i].fn.FreeVars {
			o.kind = objClosure
			o.bindings = append(o.bindings, t.input(name+"."+fv.Name(), fv.Type(), 1))
		}
		return t.inline(methods[i], append([]value{{obj: o}}, args...), nil)
	}
	if len(ads) == 1 {
		return run(0)
	}
	sel := t.freshVar(name+" (which function)", ir.Int, ir.KindModel)
	alt := &object{kind: objClosure}
	for i := range ads {
		alt.alts = append(alt.alts, &object{kind: objFunc, fn: ads[i].fn})
		alt.altConds = append(alt.altConds, ir.Eq(sel, ir.IntLit(int64(i))))
	}
	return t.forAlts(alt, func(o *object) value {
		for i := range ads {
			if alt.alts[i] == o {
				return run(i)
			}
		}
		return t.fresh(name+"()", c.Signature().Results())
	})
}
