package frontend

import (
	"fmt"
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
// for the struct's fields: an assumption stated in the result. Rules the
// model does not read (string lengths, cross-field rules, alternatives
// with |, elements under dive) are left out, which only assumes less.

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
	errV := t.freshVar(val.what+"()", ir.Bool, ir.KindCall)
	var bounds []ir.Expr
	var texts []string
	for i, a := range args {
		if i >= len(argTypes) {
			break
		}
		for _, f := range t.validatedFields(a, argTypes[i], val.tag, "", 0) {
			tag := reflect.StructTag(f.tag).Get(val.tag)
			for _, b := range tagBounds(tag, f.x, f.typ) {
				bounds = append(bounds, b.expr)
				texts = append(texts, f.name+" "+b.text)
			}
		}
	}
	if len(bounds) > 0 {
		t.emit(&ir.Assume{Cond: ir.Implies(ir.Not(errV), ir.And(bounds...)), Info: t.info(ir.KindModel, "")})
		file, line := t.l.position(t.pos)
		t.p.Assume(fmt.Sprintf("validator tags hold where %s returns nil: %s (%s:%d)", val.what, strings.Join(texts, ", "), file, line))
	}
	if results.Len() == 1 {
		return value{expr: errV}
	}
	out := t.fresh(val.what+"()", results)
	if n := len(out.tuple); n > 0 {
		out.tuple[n-1] = value{expr: errV}
	}
	return out
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
			continue
		}
		if _, ok := p.Elem().Underlying().(*types.Struct); !ok || !structs {
			continue
		}
		target := t.newCell(p.Elem(), fc.name, false)
		t.havocCell(target, 0)
		fc.ref, fc.refSet, fc.impl = value{obj: &object{kind: objPtr, cell: target}}, true, nil
		t.decodedPointers(target, depth+1, structs)
	}
}

// validatedField is a scalar field the validator checks: its path,
// value, type and struct tag.
type validatedField struct {
	name string
	x    ir.Expr
	typ  types.Type
	tag  string
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
			out = append(out, validatedField{name, f.expr, st.Field(i).Type(), st.Tag(i)})
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
			out = append(out, validatedField{name, fc.v, st.Field(i).Type(), st.Tag(i)})
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
		}
	}
	return out
}

// bound is one numeric bound read from a tag.
type bound struct {
	expr ir.Expr
	text string
}

// tagBounds returns the numeric bounds the validator tag puts on a field
// of type typ holding x: gt, gte, lt, lte, min, max, eq, ne, len, oneof
// and required (non-zero), under omitempty only for a non-zero value.
// Only integer and float fields are read.
func tagBounds(tag string, x ir.Expr, typ types.Type) []bound {
	b, ok := typ.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsInteger|types.IsFloat) == 0 || tag == "" || tag == "-" {
		return nil
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
	for _, rule := range strings.Split(tag, ",") {
		if strings.Contains(rule, "|") {
			continue
		}
		name, arg, _ := strings.Cut(rule, "=")
		if name == "omitempty" {
			omitEmpty = true
			continue
		}
		if name == "dive" {
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
			if len(alts) > 0 {
				out = append(out, bound{ir.Or(alts...), "in (" + strings.Join(strings.Fields(arg), ", ") + ")"})
			}
			continue
		default:
			continue
		}
		v, ok := lit(arg)
		if !ok {
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
	return out
}
