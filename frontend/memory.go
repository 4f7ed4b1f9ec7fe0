package frontend

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// newCell returns a memory cell for a value of type typ. Input cells are
// reached through parameters: their scalar content starts as an input.
func (t *translator) newCell(typ types.Type, name string, input bool) *cell {
	c := &cell{typ: typ, name: name, input: input}
	if s, ok := sortOf(typ); ok {
		kind := ir.Local
		if input {
			kind = ir.Input
		}
		c.v = t.p.NewVar(name, s, kind)
		c.v.Str, c.v.Err = isStringType(typ), isError(typ)
		return c
	}
	switch u := typ.Underlying().(type) {
	case *types.Struct:
		c.fields = make([]*cell, u.NumFields())
	case *types.Array:
		if u.Len() <= 64 {
			c.fields = make([]*cell, u.Len())
		}
	}
	return c
}

// field returns the i-th field (or element) cell of c, creating it on
// first use.
func (t *translator) field(c *cell, i int) *cell {
	if i < 0 || i >= len(c.fields) {
		return nil
	}
	if c.fields[i] == nil {
		var typ types.Type
		var name string
		switch u := c.typ.Underlying().(type) {
		case *types.Struct:
			typ, name = u.Field(i).Type(), c.name+"."+u.Field(i).Name()
		case *types.Array:
			typ, name = u.Elem(), fmt.Sprintf("%s[%d]", c.name, i)
		}
		c.fields[i] = t.newCell(typ, name, c.input)
		if st, ok := c.typ.Underlying().(*types.Struct); ok && c.fields[i].v != nil {
			if texts, ok := t.l.constFieldTexts(st.Field(i)); ok {
				c.fields[i].texts = texts
			}
		}
		c.fields[i].untracked = c.untracked
		c.fields[i].alloc = c.alloc
		if c.named {
			c.fields[i].named = true
			if c.fields[i].v != nil {
				c.fields[i].v.Named = true
			}
		}
		if st, ok := c.typ.Underlying().(*types.Struct); c.internal || ok && t.internalField(st.Field(i)) {
			c.fields[i].internal = true
			if c.fields[i].v != nil {
				c.fields[i].v.Internal = true
			}
		}
		t.markApprox(c.fields[i], c.approx)
		if st, ok := c.typ.Underlying().(*types.Struct); ok && c.input {
			c.fields[i].filled = t.l.filledMapWhy(st.Field(i), name)
		}
		if st, ok := c.typ.Underlying().(*types.Struct); ok && c.input {
			if text, ok := t.l.preparedText(st.Field(i)); ok {
				// A statement field the program prepares once (prepared.go).
				c.fields[i].ref, c.fields[i].refSet = value{obj: &object{kind: objStmt, text: text}}, true
			}
		}
	}
	return c.fields[i]
}

// partName names the i-th field (or element) of a value of type typ
// named name.
func partName(typ types.Type, name string, i int) string {
	switch u := typ.Underlying().(type) {
	case *types.Struct:
		return name + "." + u.Field(i).Name()
	case *types.Array:
		return fmt.Sprintf("%s[%d]", name, i)
	}
	return name
}

// markApprox records that c stands for an element the model does not track.
func (t *translator) markApprox(c *cell, why string) {
	if why == "" {
		return
	}
	c.approx = why
	if c.v != nil {
		c.v.Approx = why
	}
}

// load reads a cell. A scalar is copied into a new variable, so later
// stores do not change the loaded value.
func (t *translator) load(c *cell, name string) value {
	if c.v != nil {
		v := t.p.NewVar(name, c.v.Type, ir.Local)
		v.Str, v.Internal, v.Err = c.v.Str, c.v.Internal, c.v.Err
		t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{c.v}, Info: t.info(ir.KindAssign, "")})
		out := value{expr: v}
		t.loadIdentity(c, &out)
		if c.texts != nil {
			out = t.constTexts(out, c.texts)
		}
		return out
	}
	if c.fields != nil {
		fs := make([]value, len(c.fields))
		for i := range fs {
			// Each field's copy is named after the field (acc.Balance),
			// never after the whole struct.
			fs[i] = t.load(t.field(c, i), partName(c.typ, name, i))
		}
		return value{fields: fs}
	}
	if !c.refSet && c.input {
		c.ref, c.refSet = t.input(c.name, c.typ, 1), true
		if o := c.ref.obj; o != nil && c.filled != "" {
			o.arbitrary, o.approxElems = false, c.filled
		}
		if c.internal {
			markInternal(c.ref)
		}
		if c.untracked {
			// What untracked memory points to is untracked too.
			markUntracked(c.ref, 0)
		}
		if c.approx != "" {
			// Content the model does not evaluate (an initialiser's).
			markValueApprox(c.ref, c.approx)
			if o := c.ref.obj; o != nil && o.kind == objSlice {
				o.approxElems = c.approx
				if n, ok := o.length.(*ir.Var); ok {
					n.Approx = c.approx
				}
			}
			if o := c.ref.obj; o != nil && o.kind == objPtr {
				// What an approximated pointer points to (an element of
				// a []*T the program filled) is approximated too.
				t.markApproxDeep(o.cell, c.approx, 1)
			}
		}
	}
	if !c.refSet {
		return value{}
	}
	t.noteLoad(c)
	r := c.ref
	if c.box != nil {
		r = t.loadBox(c, name)
	}
	if types.IsInterface(c.typ) {
		r.src = c
	}
	return r
}

// store writes v into c.
func (t *translator) store(c *cell, v value) {
	if c.v != nil {
		il, irhs := t.storeIdentity(c, v)
		x := v.expr
		if x == nil {
			t.emit(&ir.Havoc{Vars: []*ir.Var{c.v}, Info: t.info(ir.KindAssign, "")})
			if len(il) > 0 {
				t.emit(&ir.Assign{Lhs: il, Rhs: irhs, Info: t.info(ir.KindModel, "")})
			}
			return
		}
		t.emit(&ir.Assign{Lhs: append([]*ir.Var{c.v}, il...), Rhs: append([]ir.Expr{convertSort(x, c.v.Type)}, irhs...), Info: t.info(ir.KindAssign, "")})
		return
	}
	if c.fields != nil {
		for i := range c.fields {
			var fv value
			if i < len(v.fields) {
				fv = v.fields[i]
			}
			t.store(t.field(c, i), fv)
		}
		return
	}
	if t.storeBox(c, v) {
		return
	}
	switch {
	case !c.refSet:
		c.ref, c.refSet, c.impl = v, true, nil
		c.dynType = nil
	case !sameValue(c.ref, v):
		if l, ok := t.loadReached(c); ok {
			t.unsupported("a store into %s that reaches its read at %s around a loop (a slice, map, pointer or interface kept in memory is not tracked around loops)", c.name, t.posString(l.pos))
		}
		c.impl = nil
		c.dynType = nil
		// Flow-insensitive object content: two different objects make it unknown.
		m := mergeRef(c.ref, v)
		if m.expr != nil && c.refBlock != t.blockNow() {
			// A scalar boxed in an interface (an element of []any)
			// stored again in another block: on a path that skips this
			// store the cell holds the earlier value, not this one
			// (args[0] = qty under an if), so its content is any value,
			// marked.
			a := t.freshVar(c.name, m.expr.Sort(), ir.KindModel)
			a.Approx = fmt.Sprintf("the value of %s, stored again at %s on some paths only (interface content is not tracked path by path)", c.name, t.posString(t.pos))
			m = value{expr: a}
		}
		if m.expr == nil && m.obj == nil {
			t.lose(c.ref)
			t.lose(v)
		}
		c.ref = m
	}
	c.refBlock = t.blockNow()
}

func mergeRef(a, b value) value {
	if a.obj != nil && a.obj.kind == objNil {
		return b
	}
	if b.obj != nil && b.obj.kind == objNil {
		return a
	}
	if a.expr != nil && b.expr != nil {
		return value{expr: b.expr} // scalars boxed in interfaces: last store
	}
	return value{}
}

// havocCell gives every scalar reachable in c an arbitrary value: the cell
// was passed to code the model does not see.
func (t *translator) havocCell(c *cell, depth int) {
	if c == nil || depth > 4 {
		return
	}
	if c.v != nil {
		t.emit(&ir.Havoc{Vars: []*ir.Var{c.v}, Info: t.info(ir.KindCall, "")})
		return
	}
	if c.box != nil {
		// Outside code may store any value, of any type: marked.
		t.havocBox(c, fmt.Sprintf("the value of %s, which code the model does not see (%s) may have written", c.name, t.posString(t.pos)))
		return
	}
	for i := range c.fields {
		t.havocCell(t.field(c, i), depth+1)
	}
	if c.refSet && isNilObject(c.ref) {
		// A nil the model knew of (a left-out handle field) may have
		// been overwritten: no longer known to be nil.
		c.ref = value{}
	}
	if c.refSet && c.ref.obj != nil && c.ref.obj.kind == objPtr {
		t.havocCell(c.ref.obj.cell, depth+1)
	}
}

// appendKnown is append(s, x...) where the model knows the elements of s
// and x: a slice of an array it tracks (a slice literal, variadic
// arguments, make with constant sizes) or nil. Where the array has room
// (its capacity is known), the elements of x are stored into it: the
// result shares it with s (and with other slices appended to s). Else
// append copies into a new array: the result holds copies of the
// elements, as values at the time of the call (db.Exec(q, args...) then
// binds them); its capacity is Go's choice, so a second append to the
// same s may write into the first one's array (see forkAppend).
func (t *translator) appendKnown(c *ssa.CallCommon, args []value) (value, bool) {
	if len(args) != 2 || isString(c.Args[1].Type()) {
		return value{}, false
	}
	st, ok := c.Signature().Results().At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return value{}, false
	}
	s, x := t.knownElems(args[0]), t.knownElems(args[1])
	if s == nil || x == nil {
		return value{}, false
	}
	if len(x) == 0 {
		return args[0], true // append(s) is s itself
	}
	if v, ok := t.appendInPlace(args[0].obj, x); ok {
		return v, true
	}
	elems := append(append([]value(nil), s...), x...)
	if len(elems) > 64 {
		return value{}, false
	}
	arr := t.newCell(types.NewArray(st.Elem(), int64(len(elems))), fmt.Sprintf("append()#%d", len(elems)), false)
	arr.alloc = t.blockNow()
	for i, e := range elems {
		t.store(t.field(arr, i), e)
	}
	out := &object{kind: objSlice, cell: arr, length: ir.IntLit(int64(len(elems))), capUnknown: true}
	t.forkAppend(args[0].obj, len(s), len(x), out)
	return value{obj: out}, true
}

// knownElems returns the elements of a slice whose elements the model
// knows (none for nil), or nil.
func (t *translator) knownElems(v value) []value {
	if v.obj != nil && v.obj.kind == objNil {
		return []value{}
	}
	return t.sliceElems(v)
}

// maxZeroedScalars bounds the scalars of one allocation given their zero
// value one by one; the fields of a larger value start arbitrary (an
// over-approximation).
const maxZeroedScalars = 64

// zeroCell gives the scalars of a new allocation their zero value: a
// composite literal's fields it does not name (Coupon{Code: code} has
// Uses 0) hold zero, not an arbitrary value, until a store. budget
// counts the scalars left to zero.
func (t *translator) zeroCell(c *cell, depth int, budget *int) {
	if c == nil || depth > 4 || *budget <= 0 {
		return
	}
	if c.v != nil {
		*budget--
		kind := ir.KindAssign // var b int64: shown at its line
		if depth > 0 {
			// A field's zero is shown where the value is copied or
			// read (c := Coupon{Code: code}), not at the allocation (a
			// variable a call's result lands in).
			kind = ir.KindModel
		}
		t.emit(&ir.Assign{Lhs: []*ir.Var{c.v}, Rhs: []ir.Expr{t.zeroOf(c.v)}, Info: t.info(kind, "")})
		return
	}
	if c.fields == nil && depth > 0 && !c.refSet && isHandleType(c.typ) {
		// A database handle field the literal leaves out is nil
		// (&Repo{pool: pool} has no transaction): as a stored nil.
		c.ref, c.refSet = value{obj: &object{kind: objNil}}, true
		return
	}
	for i := range c.fields {
		t.zeroCell(t.field(c, i), depth+1, budget)
	}
}

// isHandleType reports whether typ is a database handle's type (a pool,
// connection, transaction, statement, … or a DBTX-like interface).
func isHandleType(typ types.Type) bool {
	_, ok := dbObjectKind(typ)
	return ok || dblib.IsDBInterface(typ)
}

// zeroOf is the zero value of v's Go type: for a string, the code of ""
// (not 0, the code of "0"), which traces print as "".
func (t *translator) zeroOf(v *ir.Var) ir.Expr {
	if !v.Str {
		return ir.Zero(v.Type)
	}
	code := ir.StringCode("")
	if t.p.Strings == nil {
		t.p.Strings = map[string]string{}
	}
	t.p.Strings[code.V.String()] = ""
	return code
}
