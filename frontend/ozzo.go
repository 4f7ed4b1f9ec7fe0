package frontend

import (
	"go/constant"
	"go/types"
	"math/big"
	"strings"

	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// ozzo-validation (github.com/go-ozzo/ozzo-validation, v3 and v4): the
// rules are Go values, read from the SSA of the call's arguments.
//
//	validation.ValidateStruct(&req,
//	    validation.Field(&req.Price, validation.Required, validation.Min(0)),
//	    validation.Field(&req.Name, validation.Length(1, 100)))
//	validation.Validate(req.Qty, validation.Min(1), validation.Max(99))
//
// ValidateStruct checks every field and returns nil only if every
// field's rules pass; Validate checks one value. The model reads, on
// integer and float values: Required and NilOrNotEmpty (not zero), Min
// and Max (with Exclusive, Error, ErrorObject) against a constant of the
// value's kind, and In (a zero value passes; an element equals the
// value only when its Go type is the value's: reflect.DeepEqual). Min
// and Max skip a zero value before v4.4.0 and check it since (its
// changelog: "Min()/Max() now validate zero values"), so the module
// version decides. A By(fn) rule whose fn is a function of the module
// is fn's own code, analysed on the path where the call returns nil
// with fn returning nil (validationOutcome). Any other rule (a length, a
// format, a By of a closure, When, a rule
// built at run time, a value whose type has its own Validate method) is
// a rule not read: the checked value is an approximation where the call
// returns nil (validationOutcome). The rule constructors only build
// values: they write nothing, so a field pointer handed to Field keeps
// its value (an outside call would havoc it).

// ozzoPaths are the import paths of ozzo-validation's main package.
var ozzoPaths = map[string]bool{
	"github.com/go-ozzo/ozzo-validation/v4": true,
	"github.com/go-ozzo/ozzo-validation":    true,
}

// ozzoZeroChecked is the first version whose Min and Max check a zero
// value.
const ozzoZeroChecked = "v4.4.0"

// ozzoCall translates a call of ozzo-validation, if fn is one the model
// knows: a validation (ValidateStruct, Validate and their WithContext
// forms) or a rule constructor.
func (t *translator) ozzoCall(f *frame, fn *ssa.Function, c *ssa.CallCommon, results *types.Tuple) (value, bool) {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || !ozzoPaths[obj.Pkg().Path()] {
		return value{}, false
	}
	recv := fn.Signature.Recv() != nil
	switch {
	case !recv && fn.Name() == "ValidateStruct" && len(c.Args) == 2:
		return t.ozzoStruct(f, obj.Pkg().Path(), c.Args[0], c.Args[1], results), true
	case !recv && fn.Name() == "ValidateStructWithContext" && len(c.Args) == 3:
		return t.ozzoStruct(f, obj.Pkg().Path(), c.Args[1], c.Args[2], results), true
	case !recv && fn.Name() == "Validate" && len(c.Args) == 2:
		return t.ozzoValue(f, obj.Pkg().Path(), c.Args[0], c.Args[1], results), true
	case !recv && fn.Name() == "ValidateWithContext" && len(c.Args) == 3:
		return t.ozzoValue(f, obj.Pkg().Path(), c.Args[1], c.Args[2], results), true
	case ozzoBuilder(fn.Name(), recv):
		return t.fresh(fn.Name()+"()", results), true
	}
	return value{}, false
}

// ozzoBuilder reports whether the function or rule method name only
// builds a rule value.
func ozzoBuilder(name string, method bool) bool {
	if method {
		switch name {
		case "Exclusive", "Error", "ErrorObject", "When":
			return true
		}
		return false
	}
	switch name {
	case "Field", "By", "Min", "Max", "In", "NotIn", "Length", "RuneLength", "Match", "NotNil", "Nil", "Empty", "MultipleOf", "Date":
		return true
	}
	return false
}

// ozzoStruct models ValidateStruct(structPtr, fields...).
func (t *translator) ozzoStruct(f *frame, path string, structArg, fieldsArg ssa.Value, results *types.Tuple) value {
	what := "ozzo-validation's ValidateStruct"
	structPtr := stripInterface(structArg)
	fields, ok := varargElems(fieldsArg)
	if !ok {
		return t.validationOutcome(what, "ozzo-validation rules", []fieldCheck{{name: "the struct", unread: []string{"fields built at run time"}}}, results)
	}
	var checks []fieldCheck
	for _, fr := range fields {
		checks = append(checks, t.ozzoField(f, path, structPtr, fr))
	}
	return t.validationOutcome(what, "ozzo-validation rules", checks, results)
}

// ozzoField reads one validation.Field(&s.F, rules...) of a
// ValidateStruct of structPtr.
func (t *translator) ozzoField(f *frame, path string, structPtr, fr ssa.Value) fieldCheck {
	call, ok := fr.(*ssa.Call)
	callee := (*ssa.Function)(nil)
	if ok {
		callee = call.Call.StaticCallee()
	}
	if callee == nil || callee.Name() != "Field" || callee.Object() == nil || callee.Object().Pkg() == nil || !ozzoPaths[callee.Object().Pkg().Path()] || len(call.Call.Args) != 2 {
		return fieldCheck{name: "a field", unread: []string{"field rules built at run time"}}
	}
	ptr := stripInterface(call.Call.Args[0])
	fa, ok := ptr.(*ssa.FieldAddr)
	if !ok || fa.X != structPtr {
		return fieldCheck{name: t.exprName(f, ptr), unread: []string{"a field pointer the model does not trace to the validated struct"}}
	}
	name := fieldName(fa)
	pv := t.val(f, fa)
	elem := fa.Type().(*types.Pointer).Elem()
	var x ir.Expr
	var c *cell
	if pv.obj != nil && pv.obj.kind == objPtr && pv.obj.cell != nil && !pv.obj.cell.untracked && pv.obj.cell.v != nil {
		c = pv.obj.cell
		x = c.v
	}
	rules, ok := varargElems(call.Call.Args[1])
	if copiesParameter(structPtr) {
		// ValidateStruct(&r, …) in a method with a value receiver (or of a
		// struct parameter) checks a copy: a rule not read, marked on the
		// copy's field, would leave the caller's value exact (adv19
		// ozzo-by, a false UNSAFE), so it marks the nil path instead.
		c = nil
	}
	if !ok {
		return fieldCheck{name: name, cell: c, unread: []string{"rules built at run time"}}
	}
	check := fieldCheck{name: name, cell: c}
	check.bounds, check.by, check.unread = t.ozzoRules(path, rules, x, elem)
	return check
}

// fieldName names the field fa addresses.
func fieldName(fa *ssa.FieldAddr) string {
	st := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return st.Field(fa.Field).Name()
}

// ozzoValue models Validate(value, rules...).
func (t *translator) ozzoValue(f *frame, path string, valueArg, rulesArg ssa.Value, results *types.Tuple) value {
	v := stripInterface(valueArg)
	check := fieldCheck{name: t.exprName(f, v)}
	rules, ok := varargElems(rulesArg)
	if m := t.moduleValidatable(v.Type()); m != nil && ok && len(rules) == 0 && neverNil(v) {
		// Validate(&req) or Validate(req) of a value that is Validatable
		// through the module's own method: ozzo calls it (a nil pointer,
		// which it accepts without a call, is not one of these).
		return t.inline(m, []value{t.val(f, v)}, nil)
	}
	if !ok {
		check.unread = []string{"rules built at run time"}
	} else {
		check.bounds, check.by, check.unread = t.ozzoRules(path, rules, t.val(f, v).expr, v.Type())
	}
	return t.validationOutcome("ozzo-validation's Validate", "ozzo-validation rules", []fieldCheck{check}, results)
}

// ozzoRules returns the bounds the rules put on a value x of type typ
// (nil: a value the model does not read), the By rules whose function
// the model analyses (ozzoBy), and the rules it does not read.
func (t *translator) ozzoRules(path string, rules []ssa.Value, x ir.Expr, typ types.Type) ([]bound, []byRule, []string) {
	var bounds []bound
	var by []byRule
	var unread []string
	if hasValidateMethod(typ) {
		unread = append(unread, types.TypeString(typ, nil)+"'s Validate method")
	}
	b, ok := typ.Underlying().(*types.Basic)
	numeric := ok && x != nil && b.Info()&(types.IsInteger|types.IsFloat) != 0
	str := ok && x != nil && b.Info()&types.IsString != 0
	for _, r := range rules {
		r = stripInterface(r)
		if fn := t.ozzoBy(r); fn != nil && x != nil {
			by = append(by, byRule{fn: fn, arg: value{expr: x, dyn: typ, boxed: typ}, text: "By(" + fn.Name() + ")"})
			continue
		}
		if str && isOzzoRequired(r) {
			bounds = append(bounds, nonEmpty(x))
			continue
		}
		if !numeric {
			unread = append(unread, ruleText(r))
			continue
		}
		bd, ok := t.ozzoRule(path, r, x, b)
		if !ok {
			unread = append(unread, ruleText(r))
			continue
		}
		bounds = append(bounds, bd)
	}
	return bounds, by, unread
}

// ozzoBy returns the function of a rule By(fn) (nil: r is not one, or fn
// is not a function of the module without free variables, which the
// model cannot analyse: the rule is then not read). ozzo's By rule calls
// fn with the checked value, boxed as its own type, and fails where fn
// returns an error (adv19 ozzo-by: By(positive) was dropped, a false
// UNSAFE with Amount = -1).
func (t *translator) ozzoBy(r ssa.Value) *ssa.Function {
	call, ok := r.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Name() != "By" || callee.Signature.Recv() != nil || callee.Object() == nil || callee.Object().Pkg() == nil || !ozzoPaths[callee.Object().Pkg().Path()] {
		return nil
	}
	arg := call.Call.Args[0]
	if ct, ok := arg.(*ssa.ChangeType); ok {
		arg = ct.X
	}
	fn, ok := arg.(*ssa.Function)
	if !ok || len(fn.FreeVars) > 0 || fn.Blocks == nil || !t.l.inModule(fn) {
		return nil
	}
	return fn
}

// ozzoRule reads one rule r on a number x of type b.
func (t *translator) ozzoRule(path string, r ssa.Value, x ir.Expr, b *types.Basic) (bound, bool) {
	if isOzzoRequired(r) {
		return bound{ir.Not(ir.Eq(x, ir.Zero(x.Sort()))), "!= 0"}, true
	}
	call, ok := r.(*ssa.Call)
	if !ok {
		return bound{}, false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Object() == nil || callee.Object().Pkg() == nil || !ozzoPaths[callee.Object().Pkg().Path()] {
		return bound{}, false
	}
	args := call.Call.Args
	if callee.Signature.Recv() != nil {
		switch callee.Name() {
		case "Error", "ErrorObject":
			return t.ozzoRule(path, args[0], x, b)
		case "Exclusive":
			return t.ozzoThreshold(path, args[0], x, b, true)
		}
		return bound{}, false
	}
	switch callee.Name() {
	case "Min", "Max":
		return t.ozzoThreshold(path, r, x, b, false)
	case "In":
		return ozzoIn(args[0], x, b)
	}
	return bound{}, false
}

// ozzoThreshold reads Min(k) or Max(k) (call), exclusive or not.
func (t *translator) ozzoThreshold(path string, r ssa.Value, x ir.Expr, b *types.Basic, exclusive bool) (bound, bool) {
	call, ok := r.(*ssa.Call)
	if !ok || call.Call.StaticCallee() == nil || len(call.Call.Args) != 1 {
		return bound{}, false
	}
	name := call.Call.StaticCallee().Name()
	k, ok := stripInterface(call.Call.Args[0]).(*ssa.Const)
	if !ok || k.Value == nil || !sameNumberKind(k.Type(), b) {
		return bound{}, false
	}
	lit, ok := numberLit(k.Value, b)
	if !ok {
		return bound{}, false
	}
	var op ir.Op
	switch {
	case name == "Min" && exclusive:
		op = ir.OpGt
	case name == "Min":
		op = ir.OpGe
	case name == "Max" && exclusive:
		op = ir.OpLt
	case name == "Max":
		op = ir.OpLe
	default:
		return bound{}, false
	}
	out := bound{ir.Cmp(op, x, lit), op.String() + " " + k.Value.ExactString()}
	version := t.l.pkgVersions[path]
	if version == "" {
		return bound{}, false // which zero semantics: not known
	}
	if semver.Compare(version, ozzoZeroChecked) < 0 {
		out.expr = ir.Or(ir.Eq(x, ir.Zero(x.Sort())), out.expr)
		out.text += " (or 0, skipped before " + ozzoZeroChecked + ")"
	}
	return out, true
}

// ozzoIn reads In(elems...): a zero value passes, else the value equals
// an element of its own Go type (reflect.DeepEqual).
func ozzoIn(elemsArg ssa.Value, x ir.Expr, b *types.Basic) (bound, bool) {
	elems, ok := varargElems(elemsArg)
	if !ok {
		return bound{}, false
	}
	alts := []ir.Expr{ir.Eq(x, ir.Zero(x.Sort()))}
	var texts []string
	for _, e := range elems {
		k, ok := stripInterface(e).(*ssa.Const)
		if !ok || k.Value == nil {
			return bound{}, false
		}
		if !types.Identical(k.Type(), b) {
			continue // never DeepEqual to the value
		}
		lit, ok := numberLit(k.Value, b)
		if !ok {
			return bound{}, false
		}
		alts = append(alts, ir.Eq(x, lit))
		texts = append(texts, k.Value.ExactString())
	}
	return bound{ir.Or(alts...), "in (0, " + strings.Join(texts, ", ") + ")"}, true
}

// sameNumberKind reports whether a threshold of type kt compares with a
// value of type b: both signed integers, both unsigned or both floats
// (ozzo converts within a kind and fails across kinds).
func sameNumberKind(kt types.Type, b *types.Basic) bool {
	kb, ok := kt.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	class := func(x *types.Basic) int {
		switch {
		case x.Info()&types.IsFloat != 0:
			return 1
		case x.Info()&types.IsUnsigned != 0:
			return 2
		case x.Info()&types.IsInteger != 0:
			return 3
		}
		return 0
	}
	return class(kb) != 0 && class(kb) == class(b)
}

// numberLit returns the constant v as a literal of the value's sort.
func numberLit(v constant.Value, b *types.Basic) (ir.Expr, bool) {
	r, ok := new(big.Rat).SetString(v.ExactString())
	if !ok {
		return nil, false
	}
	if b.Info()&types.IsFloat != 0 {
		return ir.RealLit(r), true
	}
	if !r.IsInt() || !r.Num().IsInt64() {
		return nil, false
	}
	return ir.IntLit(r.Num().Int64()), true
}

// hasValidateMethod reports whether a value of typ (or a pointer to it)
// has a Validate method, which ozzo calls after the rules.
func hasValidateMethod(typ types.Type) bool {
	for _, t := range []types.Type{typ, types.NewPointer(typ)} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Validate"); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}

// loadedGlobal returns the package variable r loads (validation.Required).
func loadedGlobal(r ssa.Value) (*ssa.Global, bool) {
	u, ok := r.(*ssa.UnOp)
	if !ok {
		return nil, false
	}
	g, ok := u.X.(*ssa.Global)
	return g, ok
}

// ruleText names a rule for a message: its constructor or variable.
func ruleText(r ssa.Value) string {
	if g, ok := loadedGlobal(r); ok {
		return g.Pkg.Pkg.Name() + "." + g.Name()
	}
	if call, ok := r.(*ssa.Call); ok {
		if callee := call.Call.StaticCallee(); callee != nil {
			return callee.Name() + "(…)"
		}
	}
	return "a rule built at run time"
}

// stripInterface returns the value converted to an interface.
func stripInterface(v ssa.Value) ssa.Value {
	for {
		mi, ok := v.(*ssa.MakeInterface)
		if !ok {
			return v
		}
		v = mi.X
	}
}

// varargElems returns the elements of a variadic argument: nil for none,
// the values stored into the array the call's slice was built from.
func varargElems(v ssa.Value) ([]ssa.Value, bool) {
	if k, ok := v.(*ssa.Const); ok && k.IsNil() {
		return nil, true
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	out := make([]ssa.Value, arr.Len())
	for _, ref := range *alloc.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok {
			return nil, false
		}
		i, _ := constant.Int64Val(idx.Value)
		for _, st := range *ia.Referrers() {
			if s, ok := st.(*ssa.Store); ok && s.Addr == ia {
				if out[i] != nil {
					return nil, false // stored twice
				}
				out[i] = s.Val
			}
		}
	}
	for _, e := range out {
		if e == nil {
			return nil, false
		}
	}
	return out, true
}

// isOzzoRequired reports whether the rule r is Required or NilOrNotEmpty
// (on a value that is not a pointer: not empty).
func isOzzoRequired(r ssa.Value) bool {
	g, ok := loadedGlobal(r)
	return ok && (g.Name() == "Required" || g.Name() == "NilOrNotEmpty") && ozzoPaths[g.Pkg.Pkg.Path()]
}

// moduleValidatable returns the module's Validate() error method of typ
// (ozzo's Validatable), if typ's method set has one.
func (t *translator) moduleValidatable(typ types.Type) *ssa.Function {
	sel := t.l.Prog.MethodSets.MethodSet(typ).Lookup(nil, "Validate")
	if sel == nil {
		return nil
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return nil
	}
	fn := t.l.Prog.MethodValue(sel)
	if fn == nil || !t.l.inModule(fn) {
		return nil
	}
	return fn
}

// neverNil reports whether v is not a pointer or is the address of a
// variable.
func neverNil(v ssa.Value) bool {
	if _, ok := v.Type().Underlying().(*types.Pointer); !ok {
		return true
	}
	_, ok := v.(*ssa.Alloc)
	return ok
}

// copiesParameter reports whether v is the address of a local variable
// holding a copy of a parameter (a value receiver).
func copiesParameter(v ssa.Value) bool {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if _, ok := st.Val.(*ssa.Parameter); ok {
				return true
			}
		}
	}
	return false
}
