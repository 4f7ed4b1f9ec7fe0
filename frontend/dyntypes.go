package frontend

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Type assertions on interface values whose dynamic type the model
// chooses.
//
// An interface value handed in from outside (an entry's argument, a field
// of its receiver: sqlc's s.Querier) has as dynamic type one of the types
// of the program that implement its interface, or it is nil. The model
// numbers that choice with one variable per value (typeChoice), shared by
// every use of the value: a type assertion x.(T) holds exactly where the
// chosen type is T (or implements T), and an interface call on x runs the
// method of the chosen type (methodsOf reads the same variable). A
// single-result assertion that fails panics; comma-ok and type switches
// branch on the same variable. Where the program has a single type that
// implements the interface, the assertion holds on every path but the
// one where x is nil.
//
// The interface is one the module declares. The candidates are the named
// types of the loaded packages (T and *T) that implement it, as the
// dispatch assumes (class hierarchy, generated test doubles left out).
// They are not known — the assertion stays an approximation
// (assertPanic) — for an interface without methods (any type has them
// all), an error (the model follows errors as flags, errpaths.go), an
// interface of a library or an unnamed one, or where a generic type of
// the program has its methods' names (an instance may implement it), or
// where the module boxes a value of an unnamed type into it, or where a
// package of the module not analysed may declare another implementation
// (otherimpls.go).

// typeChoice is the dynamic type of one interface value: v takes the
// number (translator.typeID) of one of types, or of the nil type when
// nilOK (the value may be nil).
type typeChoice struct {
	v     *ir.Var
	types []types.Type
	nilOK bool
}

// nilType stands for the dynamic "type" of a nil interface value in
// typeChoice's numbering.
func nilType() types.Type { return types.Typ[types.UntypedNil] }

// dynamicTypes returns the types of the program whose values may be the
// dynamic type of an interface of type iface (see the package comment
// above), or false when they are not known.
func (l *Loaded) dynamicTypes(iface types.Type) ([]types.Type, bool) {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok || it.NumMethods() == 0 || isError(iface) {
		return nil, false
	}
	if named, ok := types.Unalias(iface).(*types.Named); !ok || !l.declaredInModule(named.Obj().Pkg()) {
		// A library's interface (http.ResponseWriter, driver.Valuer) or
		// an unnamed one: left as it was (arbitrary outcomes).
		return nil, false
	}
	key := types.TypeString(iface, nil)
	if out, ok := l.dynTypesCache[key]; ok {
		return out, len(out) > 0
	}
	out, ok := l.implementingTypes(it)
	if len(l.otherImplementations(it)) > 0 {
		// A type of a package not analysed may be the dynamic type: an
		// assertion's outcome is not decided on the loaded ones.
		ok = false
	}
	if !ok || len(out) == 0 {
		// None loaded: an implementation may sit in a package not
		// analysed (as for the dispatch, see invoke).
		out, ok = []types.Type{}, false
	}
	l.dynTypesCache[key] = out
	return out, ok
}

// implementingTypes lists the named types T and *T of the loaded
// packages (package-level or local) that implement it; false when a
// generic type could, or an unnamed type is boxed into it.
func (l *Loaded) implementingTypes(it *types.Interface) ([]types.Type, bool) {
	var out []types.Type
	for _, p := range l.Prog.AllPackages() {
		for _, tn := range typeNames(p.Pkg.Scope()) {
			named, ok := tn.Type().(*types.Named)
			if !ok || tn.IsAlias() || types.IsInterface(named) {
				continue
			}
			if named.TypeParams().Len() > 0 {
				if hasMethodNames(named, it) {
					return nil, false
				}
				continue
			}
			if isMock(named) {
				continue
			}
			for _, t := range []types.Type{named, types.NewPointer(named)} {
				if types.Implements(t, it) {
					out = append(out, t)
				}
			}
		}
	}
	if l.boxesUnnamed(it) {
		return nil, false
	}
	sort.Slice(out, func(i, j int) bool { return types.TypeString(out[i], nil) < types.TypeString(out[j], nil) })
	return out, true
}

// typeNames returns the type names declared in scope and the scopes
// inside it (types local to functions).
func typeNames(scope *types.Scope) []*types.TypeName {
	var out []*types.TypeName
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			out = append(out, tn)
		}
	}
	for i := 0; i < scope.NumChildren(); i++ {
		out = append(out, typeNames(scope.Child(i))...)
	}
	return out
}

// hasMethodNames reports whether the generic type named (or a pointer to
// it) declares a method of every name it has.
func hasMethodNames(named *types.Named, it *types.Interface) bool {
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if ms.Lookup(m.Pkg(), m.Name()) == nil {
			return false
		}
	}
	return true
}

// boxesUnnamed reports whether the module converts a value of an unnamed
// type (a struct embedding an implementation) to an interface, the value
// implementing it.
func (l *Loaded) boxesUnnamed(it *types.Interface) bool {
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok {
					continue
				}
				x := mi.X.Type()
				if p, ok := x.(*types.Pointer); ok {
					x = p.Elem()
				}
				if _, named := types.Unalias(x).(*types.Named); !named && types.Implements(mi.X.Type(), it) {
					return true
				}
			}
		}
	}
	return false
}

// typeChoiceOf returns the choice of x's dynamic type: the one of the
// value (a φ of known implementations, an earlier assertion or one of the
// cell it was loaded from), else a new one among the program's types that
// implement its static type. False when those are not known.
func (t *translator) typeChoiceOf(f *frame, iv ssa.Value) (*typeChoice, bool) {
	x := t.val(f, iv)
	if len(x.dyns) > 0 && x.dynVar != nil {
		return &typeChoice{v: x.dynVar, types: x.dyns}, true
	}
	if c := x.src; c != nil && c.dynType != nil {
		return c.dynType, true
	}
	cands := x.dyns
	nilOK := len(cands) == 0
	if nilOK {
		var ok bool
		if cands, ok = t.l.dynamicTypes(iv.Type()); !ok {
			return nil, false
		}
	}
	ch := &typeChoice{types: cands, nilOK: nilOK}
	if initialInput(x) {
		// The content the entry was given: one type for the whole run,
		// however often a loop comes back to the assertion (chosen on
		// entry, a ghost: no input a replay sets).
		ch.v = t.p.NewVar(t.sourceName(f, iv)+"$type", ir.Int, ir.Ghost)
		t.inputTypes = append(t.inputTypes, ch.v)
	} else {
		ch.v = t.freshVar(t.sourceName(f, iv)+"$type", ir.Int, ir.KindModel)
	}
	var one []ir.Expr
	for _, typ := range ch.all() {
		one = append(one, ir.Eq(ch.v, ir.IntLit(int64(t.typeID(typ)))))
	}
	t.emit(&ir.Assume{Cond: ir.Or(one...), Info: t.info(ir.KindModel, "")})
	if c := x.src; c != nil {
		c.dynType = ch
		if c.impl != nil {
			t.linkImpl(ch, c.impl)
		}
	}
	x.dyns, x.dynVar = ch.types, ch.v
	f.env[iv] = x
	return ch, true
}

// initialInput reports whether the interface value x is an entry's input
// (a parameter, or the content of memory reached from one that the
// program has not overwritten): its dynamic type does not change during
// the run.
func initialInput(x value) bool {
	c := x.src
	if c == nil {
		return false
	}
	if !c.refSet {
		return c.input // a parameter's own cell (translator.input)
	}
	own := c.ref.src
	return own != nil && own != c && own.input && !own.refSet
}

// all returns the choice's types, with the nil type where the value may
// be nil.
func (ch *typeChoice) all() []types.Type {
	if !ch.nilOK {
		return ch.types
	}
	return append(slices.Clone(ch.types), nilType())
}

// holds returns the condition under which a value of choice ch has a
// dynamic type that T is or that implements T (never nil).
func (t *translator) holds(ch *typeChoice, T types.Type) ir.Expr {
	var when []ir.Expr
	for _, typ := range ch.types {
		if types.AssignableTo(typ, T) {
			when = append(when, ir.Eq(ch.v, ir.IntLit(int64(t.typeID(typ)))))
		}
	}
	if len(when) == 0 {
		return ir.False
	}
	return ir.Or(when...)
}

// linkImpl ties a choice of dynamic type to the implementation an
// interface call on the same content chose (implOf): where the type is
// one whose method is among the call's implementations, that method ran.
// A type whose method is none of them (a library's) is left unrelated:
// the call's own assumption is not carried to the type.
func (t *translator) linkImpl(ch *typeChoice, impl *implChoice) {
	if impl.m == nil {
		return
	}
	var facts []ir.Expr
	for _, typ := range ch.types {
		fn := t.methodOf(typ, impl.m)
		if fn == nil || !slices.Contains(impl.types, t.typeID(fn.Signature.Recv().Type())) {
			continue
		}
		is := ir.Eq(ch.v, ir.IntLit(int64(t.typeID(typ))))
		facts = append(facts, ir.Or(ir.Not(is), ir.Eq(impl.v, ir.IntLit(int64(t.typeID(fn.Signature.Recv().Type()))))))
	}
	if len(facts) > 0 {
		t.emit(&ir.Assume{Cond: ir.And(facts...), Info: t.info(ir.KindModel, "")})
	}
}

// methodOf returns the module function that runs as method m of type typ
// (nil: none in the module).
func (t *translator) methodOf(typ types.Type, m *types.Func) *ssa.Function {
	sel := t.l.Prog.MethodSets.MethodSet(typ).Lookup(m.Pkg(), m.Name())
	if sel == nil {
		return nil
	}
	fn := t.l.unwrap(t.l.Prog.MethodValue(sel))
	if fn == nil || !t.l.inModule(fn) {
		return nil
	}
	return fn
}

// choiceAssert decides x.(T) on the choice of x's dynamic type: a
// single-result assertion panics where the type is not T (nil
// included), comma-ok gives ok exactly where it is.
func (t *translator) choiceAssert(f *frame, i *ssa.TypeAssert) (value, bool) {
	if _, isConst := i.X.(*ssa.Const); isConst {
		return value{}, false
	}
	ch, ok := t.typeChoiceOf(f, i.X)
	if !ok {
		return value{}, false
	}
	holds := t.holds(ch, i.AssertedType)
	switch {
	case i.CommaOk:
	case t.runtimePanics():
		t.panicIf(ir.Not(holds), "panic: interface conversion")
	default:
		// The panic ends the path, running nothing.
		t.emit(&ir.Assume{Cond: holds, Info: t.info(ir.KindBranch, "")})
	}
	v := t.assertedValue(f, i)
	if !i.CommaOk {
		return v, true
	}
	return value{tuple: []value{v, {expr: holds}}}, true
}

// assertedValue is the result of x.(T) where it holds: x itself for an
// interface T (its type choice kept), a scalar x boxed for a concrete T
// of its sort (single-result only: comma-ok's result is T's zero value
// where it fails), else an arbitrary T.
func (t *translator) assertedValue(f *frame, i *ssa.TypeAssert) value {
	x := t.val(f, i.X)
	if _, isIface := i.AssertedType.Underlying().(*types.Interface); isIface {
		return x
	}
	if s, ok := sortOf(i.AssertedType); ok && !i.CommaOk && x.expr != nil && s == x.expr.Sort() {
		return value{expr: x.expr, goConst: x.goConst, str: x.str, strKnown: x.strKnown, alts: x.alts}
	}
	return t.fresh(f.prefix+i.Name(), i.AssertedType)
}

// nilCompareChoice decides x == nil and x != nil for an interface value
// x of the module on the choice of its dynamic type (typeChoiceOf): nil
// exactly where the choice is the nil type, so that a path taking
// x == nil cannot then find x.(*T) holding. A boxed concrete value is
// never nil. False where the types are not known.
func (t *translator) nilCompareChoice(f *frame, i *ssa.BinOp) (value, bool) {
	if i.Op != token.EQL && i.Op != token.NEQ {
		return value{}, false
	}
	x := i.X
	if isNilConst(x) {
		x = i.Y
	} else if !isNilConst(i.Y) {
		return value{}, false
	}
	if _, isConst := x.(*ssa.Const); isConst || !types.IsInterface(x.Type()) || isError(x.Type()) {
		return value{}, false
	}
	var isNil ir.Expr = ir.False
	if t.val(f, x).dyn == nil {
		ch, ok := t.typeChoiceOf(f, x)
		if !ok {
			return value{}, false
		}
		if ch.nilOK {
			isNil = ir.Eq(ch.v, ir.IntLit(int64(t.typeID(nilType()))))
		}
	}
	if i.Op == token.EQL {
		return value{expr: isNil}, true
	}
	return value{expr: ir.Not(isNil)}, true
}
