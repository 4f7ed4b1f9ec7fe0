package frontend

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Functions kept in unexported struct fields.
//
// A store that wires its operations as closures (Store{save: func(…){…}})
// and calls them later (s.save(ctx, tx, id, v) inside Mutate) keeps the
// closures inside the package: Go lets no other package name an
// unexported field, so code outside can neither call what the field
// holds nor put another function there. When every value the package
// stores into such a field is a known module function (or nil) and every
// read of the field is the function of a call, the calls through the field
// are the only way the stored functions run. Then
//   - the stored functions are not entries of their own (sound: outside
//     code reaches them only through an exported function that calls
//     through the field, and that function is an entry whose verdict
//     covers them, as they are among its callees);
//   - a call through the field runs one of the stored functions, or panics
//     when the field is nil.
//
// A field read otherwise (its value passed on, returned, compared with a
// function) or given a value the analysis cannot name (a parameter, a call
// result) is open: its functions stay entries of their own and a call
// through it stays unresolved (UNKNOWN naming the call).

// fieldFuncs indexes the functions stored into unexported func-typed
// fields, by the field's generic origin (an instance Store[Account] and
// the generic body of Store[T] name the same field).
type fieldFuncs struct {
	fns  map[*types.Var][]*ssa.Function
	open map[*types.Var]bool
	// adapters: the functions stored, converted to an adapter type, into
	// unexported interface fields (isAdapter); see adapterfields.go.
	adapters  map[*types.Var][]adapterFn
	isAdapter map[*types.Var]bool
}

// storedFuncs returns the index (computed once).
func (l *Loaded) storedFuncs() *fieldFuncs {
	if l.fieldFuncCache != nil {
		return l.fieldFuncCache
	}
	ff := &fieldFuncs{fns: map[*types.Var][]*ssa.Function{}, open: map[*types.Var]bool{},
		adapters: map[*types.Var][]adapterFn{}, isAdapter: map[*types.Var]bool{}}
	seen := map[*types.Var]map[*ssa.Function]bool{}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var fld *types.Var
				var v ssa.Value
				var raw *types.Var
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					raw, v = fieldOf(instr), instr
				case *ssa.Field:
					raw, v = structField(instr), instr
				}
				if a := adapterField(raw); a != nil {
					ff.isAdapter[a] = true
					if !l.indexAdapterUses(ff, a, v) {
						ff.open[a] = true
					}
					continue
				}
				if fld = funcField(raw); fld == nil {
					continue
				}
				if seen[fld] == nil {
					seen[fld] = map[*ssa.Function]bool{}
				}
				if !l.indexFieldUses(ff, fld, v, seen[fld]) {
					ff.open[fld] = true
				}
			}
		}
	}
	for fld := range ff.fns {
		sort.Slice(ff.fns[fld], func(i, j int) bool { return ff.fns[fld][i].String() < ff.fns[fld][j].String() })
	}
	l.fieldFuncCache = ff
	return ff
}

// funcField returns the origin of fld if it is an unexported field of
// function type, else nil.
func funcField(fld *types.Var) *types.Var {
	if fld == nil || fld.Exported() {
		return nil
	}
	if _, ok := fld.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	return fld.Origin()
}

// structField returns the field an ssa.Field reads.
func structField(f *ssa.Field) *types.Var {
	st, ok := f.X.Type().Underlying().(*types.Struct)
	if !ok || f.Field >= st.NumFields() {
		return nil
	}
	return st.Field(f.Field)
}

// indexFieldUses records the functions stored through the field address
// (or read from the field value) v and reports whether every use is a
// known store or a call.
func (l *Loaded) indexFieldUses(ff *fieldFuncs, fld *types.Var, v ssa.Value, seen map[*ssa.Function]bool) bool {
	return fieldUses(v, onlyCalled, func(val ssa.Value) bool {
		fns, ok := l.storedValue(val, 0)
		if !ok {
			return false
		}
		for _, f := range fns {
			if !seen[f] {
				seen[f] = true
				ff.fns[fld] = append(ff.fns[fld], f)
			}
		}
		return true
	})
}

// fieldUses reports whether every use of the field address (or field
// value) v is a store whose value store accepts (and records) or a load
// whose uses use accepts; a field value read directly is checked by use.
func fieldUses(v ssa.Value, use func(ssa.Value) bool, store func(ssa.Value) bool) bool {
	if _, isRead := v.(*ssa.Field); isRead {
		return use(v)
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != v || !store(r.Val) {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !use(r) {
				return false
			}
		default:
			return false // the field's address goes elsewhere
		}
	}
	return true
}

// storedValue returns the module functions v may be (nil adds none), or
// false if v may be a function the analysis cannot name.
func (l *Loaded) storedValue(v ssa.Value, depth int) ([]*ssa.Function, bool) {
	if depth > 8 {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return nil, v.IsNil()
	case *ssa.MakeClosure:
		f, ok := v.Fn.(*ssa.Function)
		return []*ssa.Function{f}, ok && l.inModule(f)
	case *ssa.Function:
		return []*ssa.Function{v}, l.inModule(v)
	case *ssa.ChangeType:
		return l.storedValue(v.X, depth+1)
	case *ssa.Phi:
		var out []*ssa.Function
		for _, e := range v.Edges {
			fns, ok := l.storedValue(e, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, fns...)
		}
		return out, true
	}
	return nil, false
}

// onlyCalled reports whether the function value v is only called (or
// named, or compared with nil).
func onlyCalled(v ssa.Value) bool { return onlyCallee(v, false) }

// onlyCallee reports whether v is only the function a call runs (invoke:
// the receiver of an interface method call) — or named, or compared with
// nil — never passed, stored or converted.
func onlyCallee(v ssa.Value, invoke bool) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.BinOp:
			if !isNilConst(r.X) && !isNilConst(r.Y) {
				return false
			}
		case ssa.CallInstruction:
			c := r.Common()
			if c.IsInvoke() != invoke || c.Value != v {
				return false
			}
			for _, a := range c.Args {
				if a == v {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// closedField returns the field a function value is loaded from when that
// field is closed (see above): the calls through it run its stored
// functions.
func (l *Loaded) closedField(v ssa.Value) (*types.Var, bool) {
	fld := loadedField(v, funcField)
	if fld == nil {
		return nil, false
	}
	ff := l.storedFuncs()
	return fld, !ff.open[fld]
}

// loadedField returns pick of the struct field v loads (*p.f or s.f), nil
// when v loads none or pick refuses it.
func loadedField(v ssa.Value, pick func(*types.Var) *types.Var) *types.Var {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return pick(fieldOf(fa))
		}
	case *ssa.Field:
		return pick(structField(v))
	}
	return nil
}

// fieldCallees returns the functions a call through the closed field v
// may run.
func (l *Loaded) fieldCallees(v ssa.Value) ([]*ssa.Function, bool) {
	fld, ok := l.closedField(v)
	if !ok {
		return nil, false
	}
	return l.storedFuncs().fns[fld], true
}

// storedOnly reports whether the function value v is only stored into
// closed fields: its function runs where those fields are called, not
// where it is made.
func (l *Loaded) storedOnly(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if !l.storeIntoClosed(r, v) {
				return false
			}
		case *ssa.ChangeType:
			// Converted to an adapter type (DebiterFunc(func…)).
			if !l.storedOnly(r) {
				return false
			}
		case *ssa.MakeInterface:
			// The adapter put in an interface field.
			if !l.storedOnly(r) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// storeIntoClosed reports whether s stores v into a closed field.
func (l *Loaded) storeIntoClosed(s *ssa.Store, v ssa.Value) bool {
	fa, ok := s.Addr.(*ssa.FieldAddr)
	if !ok || s.Val != v {
		return false
	}
	if a := adapterField(fieldOf(fa)); a != nil {
		_, isIface := v.(*ssa.MakeInterface)
		ff := l.storedFuncs()
		return isIface && !ff.open[a] && len(ff.adapters[a]) > 0
	}
	fld := funcField(fieldOf(fa))
	return fld != nil && !l.storedFuncs().open[fld]
}

// callStored translates a call through the closed field c.Value: nil
// panics, else one of the stored functions runs, each on its branch. The
// variables a stored closure captures were set where it was made (a
// constructor that ran before this entry): they are arbitrary, like the
// memory the entry's receiver reaches, read fresh at each call.
func (t *translator) callStored(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, fns []*ssa.Function, args []value) value {
	name := calleeName(c.Value)
	if len(fns) == 0 {
		// Nothing is ever stored there: the field is nil.
		t.panicIf(ir.True, "panic: call of a nil function")
		return t.fresh(name+"()", c.Signature().Results())
	}
	// (Model choices, not outside values: a replay sets neither.)
	isNil := t.freshVar(name+" == nil", ir.Bool, ir.KindModel)
	t.panicIf(isNil, "panic: call of a nil function")
	alt := &object{kind: objClosure}
	var sel *ir.Var
	if len(fns) > 1 {
		sel = t.freshVar(name+" (which function)", ir.Int, ir.KindModel)
	}
	for i, fn := range fns {
		o := &object{kind: objFunc, fn: fn}
		for _, fv := range fn.FreeVars {
			o.kind = objClosure
			o.bindings = append(o.bindings, t.input(name+"."+fv.Name(), fv.Type(), 1))
		}
		if len(fns) == 1 {
			return t.inline(fn, args, o.bindings)
		}
		alt.alts = append(alt.alts, o)
		alt.altConds = append(alt.altConds, ir.Eq(sel, ir.IntLit(int64(i))))
	}
	return t.forAlts(alt, func(o *object) value {
		return t.call(f, instr, c, &deferRec{callee: value{obj: o}, args: args})
	})
}
