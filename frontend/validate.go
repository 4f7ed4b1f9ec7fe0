package frontend

import (
	"go/types"
	"math/big"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Struct validation the program runs: go-playground/validator's Struct
// (tags `validate:"…"`), gin's binding methods (ShouldBindJSON, Bind, …,
// tags `binding:"…"`, checked by the same validator after decoding) and
// echo's Context.Validate (the validator the program registers, taken to
// check `validate:"…"` tags, as the go-playground one does). On the path
// where the call returns a nil error, the numeric bounds of the tags hold
// for the struct's fields: an assumption stated in the result. A rule
// the model does not read (a string length, a cross-field rule,
// alternatives with |, elements under dive) is not dropped: where the
// call returns nil, the value it checks is an approximation naming the
// call (see validationOutcome), so a counterexample that needs the value
// the rule would have refused is UNKNOWN, never UNSAFE.

// validation says which tags a call checks and which argument it checks.
type validation struct {
	tag    string // struct tag key
	decode bool   // the call also decodes the request into the struct
	what   string // for the assumption: the call
}

// validationOf returns what a call of fn (a function outside the module)
// validates, if it is a validator or binding call.
func validationOf(fn *ssa.Function) (validation, bool) {
	name := fn.String()
	switch {
	case name == "(*github.com/go-playground/validator/v10.Validate).Struct",
		name == "(*github.com/go-playground/validator/v10.Validate).StructCtx",
		name == "(*gopkg.in/go-playground/validator.v9.Validate).Struct":
		return validation{tag: "validate", what: "validator's " + fn.Name()}, true
	case strings.HasPrefix(name, "(*github.com/gin-gonic/gin.Context).ShouldBind"),
		strings.HasPrefix(name, "(*github.com/gin-gonic/gin.Context).Bind"),
		name == "(*github.com/gin-gonic/gin.Context).MustBindWith":
		return validation{tag: "binding", decode: true, what: "gin's " + fn.Name()}, true
	}
	return validation{}, false
}

// validationOfMethod returns what an interface method call validates:
// echo's Context.Validate.
func validationOfMethod(m *types.Func) (validation, bool) {
	if m.Pkg() != nil && m.Pkg().Path() == "github.com/labstack/echo/v4" && m.Name() == "Validate" {
		return validation{tag: "validate", what: "echo's Validate (the registered validator checks validate tags)"}, true
	}
	return validation{}, false
}

// validated models a validation call: the checked struct (decoded first,
// for binding calls) and the error result, nil only if the tags' bounds
// hold.
func (t *translator) validated(val validation, args []value, argTypes []types.Type, results *types.Tuple) value {
	if val.decode {
		t.decodedTargets(args, true)
		t.markDecoded(args) // (the new scalar targets too)
		t.escape(args)
	}
	var checks []fieldCheck
	for i, a := range args {
		if i >= len(argTypes) {
			break
		}
		for _, f := range t.validatedFields(a, argTypes[i], val.tag, "", 0) {
			tag := reflect.StructTag(f.tag).Get(val.tag)
			bounds, unread := tagBounds(tag, f.x, f.typ)
			checks = append(checks, fieldCheck{name: f.name, cell: f.cell, bounds: bounds, unread: unread})
		}
	}
	return t.validationOutcome(val.what, "validator tags", checks, results)
}

// decodedTargets runs decodedPointers on the structs the arguments of a
// decoding call point to (structs: pointers to structs too).
func (t *translator) decodedTargets(args []value, structs bool) {
	for _, a := range args {
		if a.obj != nil && a.obj.kind == objPtr && a.obj.cell != nil && !a.obj.cell.untracked {
			t.decodedPointers(a.obj.cell, 0, structs)
		}
	}
}

// decodedPointers gives the nil pointer fields of the struct in cell c
// (and of its nested structs) a target of their own: a decoder
// (encoding/json, gin's binding) allocates what a pointer field points to
// when the request holds the field, and leaves it nil when the request
// holds null or lacks the field. A pointer to a struct gets an arbitrary
// target (the validator then checks its tags; whether it is nil stays
// arbitrary: a pointer to a struct compared with nil is not modelled;
// only with structs, for a binding call whose validator reads them). A
// pointer to a scalar gets an arbitrary target and one nil-ness
// (value.nonNil), arbitrary too, which every comparison with nil reads and
// a SQL argument binds as NULL — as an entry's pointer argument. A field
// already pointing somewhere is left alone: the decoder would write
// through that pointer, into memory the escape havocs.
func (t *translator) decodedPointers(c *cell, depth int, structs bool) {
	st, ok := c.typ.Underlying().(*types.Struct)
	if !ok || c.fields == nil || depth > 3 {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		fc := t.field(c, i)
		if fc == nil {
			continue
		}
		if fc.fields != nil {
			t.decodedPointers(fc, depth+1, structs)
			continue
		}
		p, ok := st.Field(i).Type().Underlying().(*types.Pointer)
		if !ok || (fc.refSet && (fc.ref.obj == nil || fc.ref.obj.kind != objNil)) {
			continue
		}
		if _, ok := sortOf(p.Elem()); ok {
			target := t.newCell(p.Elem(), fc.name, false)
			// (The escape of the call's arguments then havocs the target.)
			nonNil := t.freshVar(fc.name+" != nil", ir.Bool, ir.KindCall)
			fc.ref, fc.refSet, fc.impl = value{obj: &object{kind: objPtr, cell: target}, nonNil: nonNil}, true, nil
			fc.dynType = nil
			continue
		}
		if _, ok := p.Elem().Underlying().(*types.Struct); !ok || !structs {
			continue
		}
		target := t.newCell(p.Elem(), fc.name, false)
		t.havocCell(target, 0)
		fc.ref, fc.refSet, fc.impl = value{obj: &object{kind: objPtr, cell: target}}, true, nil
		fc.dynType = nil
		t.decodedPointers(target, depth+1, structs)
	}
}

// validatedField is a scalar field the validator checks: its path,
// value, type and struct tag.
type validatedField struct {
	name string
	x    ir.Expr // nil: a value the model does not read (a slice, a map, …)
	typ  types.Type
	tag  string
	cell *cell // the field's cell, when the struct is in memory
}

// validatedFields returns the scalar fields of the struct an argument of
// static type typ holds (directly or through a pointer), and those of
// its nested structs, which the validator checks too (a struct field, or
// a pointer to a struct whose target the model tracks) unless the
// field's rules under key skip them (see nestedChecked).
func (t *translator) validatedFields(a value, typ types.Type, key, prefix string, depth int) []validatedField {
	if depth > 3 {
		return nil
	}
	if p, ok := typ.Underlying().(*types.Pointer); ok {
		st, ok := p.Elem().Underlying().(*types.Struct)
		if !ok || a.obj == nil || a.obj.kind != objPtr || a.obj.cell == nil || a.obj.cell.fields == nil {
			return nil
		}
		return t.cellFields(a.obj.cell, st, key, prefix, depth)
	}
	st, ok := typ.Underlying().(*types.Struct)
	if !ok || len(a.fields) != st.NumFields() {
		return nil
	}
	var out []validatedField
	for i, f := range a.fields {
		name := prefix + st.Field(i).Name()
		if f.expr != nil {
			out = append(out, validatedField{name, f.expr, st.Field(i).Type(), st.Tag(i), nil})
			continue
		}
		if !isStructOrPtr(st.Field(i).Type()) {
			out = append(out, validatedField{name, nil, st.Field(i).Type(), st.Tag(i), nil})
			continue
		}
		if nestedChecked(reflect.StructTag(st.Tag(i)).Get(key), false) {
			out = append(out, t.validatedFields(f, st.Field(i).Type(), key, name+".", depth+1)...)
		}
	}
	return out
}

// nestedChecked reports whether the validator checks the fields of a
// nested struct whose field carries rules tag: not under "-" or
// structonly, and, for a struct value (not a pointer), not under
// omitempty and its kin, which skip a zero struct (a pointer's omitempty
// skips only nil, whose target the program cannot read).
func nestedChecked(tag string, pointer bool) bool {
	for _, rule := range strings.Split(tag, ",") {
		switch strings.TrimSpace(rule) {
		case "-", "structonly":
			return false
		case "omitempty", "omitnil", "omitzero":
			if !pointer {
				return false
			}
		}
	}
	return true
}

// cellFields is validatedFields for a struct held in cell c.
func (t *translator) cellFields(c *cell, st *types.Struct, key, prefix string, depth int) []validatedField {
	var out []validatedField
	for i := 0; i < st.NumFields(); i++ {
		fc := t.field(c, i)
		if fc == nil {
			continue
		}
		name := prefix + st.Field(i).Name()
		tag := reflect.StructTag(st.Tag(i)).Get(key)
		switch {
		case fc.v != nil:
			out = append(out, validatedField{name, fc.v, st.Field(i).Type(), st.Tag(i), fc})
		case fc.fields != nil:
			if nst, ok := st.Field(i).Type().Underlying().(*types.Struct); ok && nestedChecked(tag, false) {
				out = append(out, t.cellFields(fc, nst, key, name+".", depth+1)...)
			}
		case fc.refSet && fc.ref.obj != nil && fc.ref.obj.kind == objPtr && fc.ref.obj.cell != nil && fc.ref.obj.cell.fields != nil:
			if p, ok := st.Field(i).Type().Underlying().(*types.Pointer); ok && nestedChecked(tag, true) {
				if nst, ok := p.Elem().Underlying().(*types.Struct); ok && depth < 3 {
					out = append(out, t.cellFields(fc.ref.obj.cell, nst, key, name+".", depth+1)...)
				}
			}
		case !isStructOrPtr(st.Field(i).Type()):
			out = append(out, validatedField{name, nil, st.Field(i).Type(), st.Tag(i), nil})
		}
	}
	return out
}

// isStructOrPtr reports whether typ is a struct or a pointer to one: a
// nested struct, whose own fields the validator checks.
func isStructOrPtr(typ types.Type) bool {
	if p, ok := typ.Underlying().(*types.Pointer); ok {
		typ = p.Elem()
	}
	_, ok := typ.Underlying().(*types.Struct)
	return ok
}

// bound is one numeric bound read from a tag.
type bound struct {
	expr ir.Expr
	text string
}

// tagBounds returns the numeric bounds the validator tag puts on a field
// of type typ holding x (gt, gte, lt, lte, min, max, eq, ne, len, oneof
// and required (non-zero), under omitempty only for a non-zero value),
// and the rules it does not read: every rule of a field that is not an
// integer or a float (x nil: a value the model does not read; a string,
// whose lengths and formats are not modelled), and on numbers the rules
// not listed (alternatives with |, cross-field rules, bounds that are
// not numbers of the field's kind, rules after dive).
func tagBounds(tag string, x ir.Expr, typ types.Type) ([]bound, []string) {
	if tag == "" || tag == "-" {
		return nil, nil
	}
	b, ok := typ.Underlying().(*types.Basic)
	if ok && x != nil && b.Info()&types.IsString != 0 {
		return stringTagBounds(tag, x)
	}
	if !ok || x == nil || b.Info()&(types.IsInteger|types.IsFloat) == 0 {
		return nil, unreadRules(tag)
	}
	isFloat := b.Info()&types.IsFloat != 0
	lit := func(s string) (ir.Expr, bool) {
		r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
		if !ok {
			return nil, false
		}
		if isFloat {
			return ir.RealLit(r), true
		}
		if !r.IsInt() {
			return nil, false
		}
		return ir.IntLit(r.Num().Int64()), true
	}
	zero := ir.Zero(x.Sort())
	omitEmpty := false
	var out []bound
	var unread []string
	rules := strings.Split(tag, ",")
	for i, rule := range rules {
		if strings.Contains(rule, "|") {
			unread = append(unread, rule)
			continue
		}
		name, arg, _ := strings.Cut(rule, "=")
		if name == "omitempty" {
			omitEmpty = true
			continue
		}
		if name == "dive" {
			unread = append(unread, strings.Join(rules[i:], ","))
			break // the rules after dive are about elements
		}
		var op ir.Op
		switch name {
		case "required":
			out = append(out, bound{ir.Not(ir.Eq(x, zero)), "!= 0"})
			continue
		case "gt":
			op = ir.OpGt
		case "gte", "min":
			op = ir.OpGe
		case "lt":
			op = ir.OpLt
		case "lte", "max":
			op = ir.OpLe
		case "eq", "len":
			op = ir.OpEq
		case "ne":
			op = ir.OpNe
		case "oneof":
			var alts []ir.Expr
			for _, s := range strings.Fields(arg) {
				v, ok := lit(s)
				if !ok {
					alts = nil
					break
				}
				alts = append(alts, ir.Eq(x, v))
			}
			if len(alts) == 0 {
				unread = append(unread, rule)
				continue
			}
			out = append(out, bound{ir.Or(alts...), "in (" + strings.Join(strings.Fields(arg), ", ") + ")"})
			continue
		default:
			unread = append(unread, rule)
			continue
		}
		v, ok := lit(arg)
		if !ok {
			unread = append(unread, rule)
			continue
		}
		out = append(out, bound{ir.Cmp(op, x, v), op.String() + " " + strings.TrimSpace(arg)})
	}
	if omitEmpty {
		for i := range out {
			out[i].expr = ir.Implies(ir.Not(ir.Eq(x, zero)), out[i].expr)
			out[i].text += " (when set)"
		}
	}
	return out, unread
}

// unreadRules returns the rules of a tag on a value the model does not
// read, less those that check nothing by themselves (omitempty and its
// kin) or that only steer the checking of a nested struct.
func unreadRules(tag string) []string {
	var out []string
	for _, rule := range strings.Split(tag, ",") {
		switch strings.TrimSpace(rule) {
		case "", "omitempty", "omitnil", "omitzero", "-", "structonly", "nostructlevel":
			continue
		}
		out = append(out, rule)
	}
	return out
}

// stringTagBounds is tagBounds on a string x: required is a non-empty
// string (its code is not the empty string's, ir.StringCode), under
// omitempty nothing; every other rule (lengths, formats) is not read.
func stringTagBounds(tag string, x ir.Expr) ([]bound, []string) {
	var out []bound
	var unread []string
	omitEmpty := false
	for _, rule := range strings.Split(tag, ",") {
		switch rule {
		case "omitempty":
			omitEmpty = true
		case "required":
			out = append(out, nonEmpty(x))
		default:
			unread = append(unread, unreadRules(rule)...)
		}
	}
	if omitEmpty {
		out = nil // a required string under omitempty: any value
	}
	return out, unread
}

// nonEmpty is the bound x != "" on a string x.
func nonEmpty(x ir.Expr) bound {
	return bound{ir.Not(ir.Eq(x, ir.StringCode(""))), "!= \"\""}
}
