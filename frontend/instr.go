package frontend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// val returns the abstract value of an SSA operand.
func (t *translator) val(f *frame, v ssa.Value) value {
	switch v := v.(type) {
	case *ssa.Const:
		return t.constant(v)
	case *ssa.Function:
		return value{obj: &object{kind: objFunc, fn: v}}
	case *ssa.Global:
		return value{obj: &object{kind: objPtr, cell: t.global(v)}}
	}
	if x, ok := f.env[v]; ok {
		return x
	}
	// Defined in a block not yet translated (cannot happen in dominator
	// order) or an operand kind the model does not know: arbitrary.
	return t.fresh(v.Name(), v.Type())
}

// global returns the cell of a package-level variable. Its initial content
// is arbitrary, except that error variables (sentinels) are non-nil.
func (t *translator) global(g *ssa.Global) *cell {
	if t.globals == nil {
		t.globals = map[*ssa.Global]*cell{}
	}
	if c, ok := t.globals[g]; ok {
		return c
	}
	elem := g.Type().(*types.Pointer).Elem()
	c := t.newCell(elem, g.Pkg.Pkg.Name()+"."+g.Name(), true)
	if isError(elem) {
		// A package-level error variable is a sentinel: non-nil.
		c.v.Kind = ir.Ghost
		t.sentinels = append(t.sentinels, c.v)
	}
	switch {
	case !t.l.cfg.ConfigInputs && !isError(elem) && t.l.setByCode(g) != "":
		// Set by the program's own code outside the entry's path too:
		// what earlier calls left there.
		t.markApproxDeep(c, fmt.Sprintf("%s.%s, which %s also sets: its value when the entry starts is what earlier calls left (memory state, not an input)", g.Pkg.Pkg.Name(), g.Name(), t.l.setByCode(g)), 0)
	case !t.l.initOnlyGlobal(g) || isError(elem):
	case t.l.closedTable(g):
		// A table of operations filled by init: only looked up, and
		// each lookup gives one of its known functions (initmaps.go).
		c.ref, c.refSet = value{obj: t.initTableObject(g)}, true
	case !isCollection(elem) && (t.l.cfg.ConfigInputs || t.l.fixedByProgram(g)):
		// The user said a deployment's settings are inputs, or the
		// program fixes the value (a call with constant arguments).
	case isCollection(elem):
		// The slice or map the initialiser filled: its length and
		// elements are the initialiser's, which the model does not
		// evaluate.
		t.markApprox(c, fmt.Sprintf("the content of %s.%s, filled by its initialiser, which the model does not evaluate", g.Pkg.Pkg.Name(), g.Name()))
	default:
		// A setting computed at initialisation (`var feeRate =
		// decimal.RequireFromString("0.015")`, a value read from the
		// environment): the model does not evaluate it, and a value a
		// deployment sets is not an input the user chose, so a
		// counterexample that reads it is UNKNOWN, not UNSAFE (adv11
		// p33: a counterexample picked feeRate = 0.005).
		t.markApproxDeep(c, fmt.Sprintf("%s.%s, set when its package is initialised by code the model does not evaluate (a configuration value, not an input)", g.Pkg.Pkg.Name(), g.Name()), 0)
	}
	t.globals[g] = c
	return c
}

// isCollection reports whether typ is a slice or map type.
func isCollection(typ types.Type) bool {
	switch typ.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// constant translates an SSA constant.
func (t *translator) constant(c *ssa.Const) value {
	typ := c.Type()
	if c.Value == nil {
		if s, ok := sortOf(typ); ok {
			v := value{expr: ir.Zero(s)} // nil error is "not non-nil"; zero values
			if isError(typ) {
				v.err = freshErr() // no error: no sentinel, wraps none
			}
			return v
		}
		if isErrorSlice(typ) {
			return value{obj: &object{kind: objNil}, err: emptyErrs()}
		}
		return value{obj: &object{kind: objNil}}
	}
	switch c.Value.Kind() {
	case constant.Bool:
		return value{expr: ir.BoolConst(constant.BoolVal(c.Value)), goConst: true}
	case constant.String:
		s := constant.StringVal(c.Value)
		return value{expr: ir.StringCode(s), str: s, strKnown: true}
	case constant.Int:
		if s, ok := sortOf(typ); ok && s == ir.Real {
			r, _ := new(big.Rat).SetString(c.Value.ExactString())
			return value{expr: ir.RealLit(r)}
		}
		n, ok := new(big.Int).SetString(c.Value.ExactString(), 10)
		if !ok {
			return value{expr: ir.IntLit(0)}
		}
		return value{expr: ir.BigInt(n)}
	case constant.Float:
		if r, ok := floatLit(c.Value, typ); ok {
			return value{expr: ir.RealLit(r)}
		}
		r, ok := new(big.Rat).SetString(c.Value.ExactString())
		if !ok {
			f, _ := constant.Float64Val(c.Value)
			r = new(big.Rat).SetFloat64(f)
		}
		if s, ok := sortOf(typ); ok && s == ir.Int {
			return value{expr: ir.BigInt(new(big.Int).Quo(r.Num(), r.Denom()))}
		}
		return value{expr: ir.RealLit(r)}
	}
	return value{}
}

// define binds the value of instruction v; a scalar that holds a named Go
// local is materialised in a variable of that name so traces show it.
func (t *translator) define(f *frame, v ssa.Value, x value) {
	if name, ok := f.names[v]; ok && x.expr != nil {
		if xv, isVar := x.expr.(*ir.Var); !isVar || xv.Kind == ir.Ghost {
			nv := t.p.NewVar(f.prefix+name, x.expr.Sort(), ir.Local)
			nv.Str, nv.Named, nv.Err = isStringType(v.Type()), true, isError(v.Type())
			t.emit(&ir.Assign{Lhs: []*ir.Var{nv}, Rhs: []ir.Expr{x.expr}, Info: t.info(ir.KindAssign, "")})
			x.expr = nv
		}
	}
	f.env[v] = x
}

// instr translates a non-terminator instruction.
func (t *translator) instr(f *frame, instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.MapUpdate:
		// Map contents are not tracked (but a literal's, see mapLiteral);
		// a write to a nil map panics.
		m := t.val(f, i.Map)
		if m.obj != nil && m.obj.kind == objNil {
			t.panicHere("panic: assignment to entry in nil map")
		}
		k, v := t.val(f, i.Key), t.val(f, i.Value)
		if m.obj != nil && m.obj.entries != nil && k.strKnown && (v.expr != nil || isFuncValue(v)) {
			m.obj.entries[k.str] = boxed(i.Value, v)
			return
		}
		t.lose(k)
		t.lose(v)
	case *ssa.Send:
		t.lose(t.val(f, i.X)) // channels are not tracked
	case *ssa.DebugRef:
	case *ssa.Store:
		t.storeTo(f, i.Addr, t.val(f, i.Val))
	case *ssa.Call:
		t.define(f, i, t.call(f, i, i.Common(), nil))
	case *ssa.Defer:
		t.deferCall(f, i)
	case *ssa.Go:
		t.goStmt(f, i)
	case *ssa.Alloc:
		t.alloc(f, i)
	case *ssa.UnOp:
		t.define(f, i, t.unop(f, i))
	case *ssa.BinOp:
		t.define(f, i, t.binop(f, i))
	case *ssa.FieldAddr:
		t.fieldAddr(f, i)
	case *ssa.Field:
		x := t.val(f, i.X)
		if i.Field < len(x.fields) {
			t.define(f, i, x.fields[i.Field])
		} else {
			t.define(f, i, t.fresh(f.prefix+i.Name(), i.Type()))
		}
	case *ssa.IndexAddr:
		t.indexPanic(f, i.X, i.Index)
		t.indexAddr(f, i)
	case *ssa.Index, *ssa.Lookup, *ssa.Next:
		t.element(f, i.(ssa.Value))
	case *ssa.Range, *ssa.Select, *ssa.MultiConvert, *ssa.SliceToArrayPointer:
		t.define(f, i.(ssa.Value), t.fresh(f.prefix+i.(ssa.Value).Name(), i.(ssa.Value).Type()))
	case *ssa.TypeAssert:
		t.typeAssert(f, i)
	case *ssa.Extract:
		x := t.val(f, i.Tuple)
		if i.Index < len(x.tuple) {
			t.define(f, i, x.tuple[i.Index])
		} else {
			t.define(f, i, t.fresh(f.prefix+i.Name(), i.Type()))
		}
	case *ssa.MakeInterface:
		t.makeInterface(f, i)
	case *ssa.ChangeInterface:
		t.define(f, i, t.val(f, i.X))
	case *ssa.ChangeType:
		t.define(f, i, t.val(f, i.X))
	case *ssa.Convert:
		if text, ok := t.l.embedRead(i.X); ok && isString(i.Type()) {
			// string(b) of an embedded file read (embed.go).
			t.define(f, i, t.staticString(text))
			return
		}
		t.define(f, i, t.showConversion(f, i, t.convert(f, i)))
	case *ssa.MakeClosure:
		var bs []value
		for _, b := range i.Bindings {
			bs = append(bs, t.val(f, b))
		}
		f.env[i] = value{obj: &object{kind: objClosure, fn: i.Fn.(*ssa.Function), bindings: bs}}
	case *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		if m, ok := i.(*ssa.MakeSlice); ok {
			if o, ok := t.makeSlice(f, m); ok {
				f.env[m] = value{obj: o}
				return
			}
		}
		o := &object{kind: objSlice, length: t.freshLen(i.(ssa.Value).Name())}
		if m, ok := i.(*ssa.MakeMap); ok && mapLiteral(m) {
			o.entries = map[string]value{}
		}
		f.env[i.(ssa.Value)] = value{obj: o}
	case *ssa.Slice:
		t.slice(f, i)
	default:
		if v, ok := instr.(ssa.Value); ok {
			t.define(f, v, t.fresh(f.prefix+v.Name(), v.Type()))
			return
		}
		t.unsupported("Go construct %T", instr)
	}
}

// alloc translates a local variable or new(T): a cell holding the zero value.
func (t *translator) alloc(f *frame, i *ssa.Alloc) {
	c := t.newCell(i.Type().(*types.Pointer).Elem(), f.prefix+t.nameOf(f, i), false)
	if userNamed(f, i) {
		c.named = true
		if c.v != nil {
			c.v.Named = true
		}
	}
	c.alloc = t.blockNow()
	budget := maxZeroedScalars
	t.zeroCell(c, 0, &budget)
	t.allocIdentity(i, c)
	f.env[i] = value{obj: &object{kind: objPtr, cell: c}}
}

// fieldAddr translates &x.f.
func (t *translator) fieldAddr(f *frame, i *ssa.FieldAddr) {
	x := t.val(f, i.X)
	if isChoicePtr(x) {
		if v, ok := t.fieldChoice(x.obj, i.Field); ok {
			f.env[i] = v
			return
		}
	}
	if x.obj != nil && x.obj.kind == objPtr && x.obj.cell != nil && x.obj.cell.fields != nil {
		f.env[i] = value{obj: &object{kind: objPtr, cell: t.field(x.obj.cell, i.Field)}}
		return
	}
	if x.obj != nil && isDBObj(x.obj.kind) {
		// The handle a library type embeds (sqlx.Tx embeds *sql.Tx):
		// promoted methods run on the same connection or transaction.
		c := &cell{typ: i.Type().(*types.Pointer).Elem(), name: f.prefix + i.Name(), ref: x, refSet: true}
		f.env[i] = value{obj: &object{kind: objPtr, cell: c}}
		return
	}
	c := t.anonCell(i.Type().(*types.Pointer).Elem(), f.prefix+t.exprName(f, i))
	if st, ok := derefType(i.X.Type()).Underlying().(*types.Struct); ok && i.Field < st.NumFields() && t.internalField(st.Field(i.Field)) {
		c.internal = true
		if c.v != nil {
			c.v.Internal = true
		}
	}
	f.env[i] = value{obj: &object{kind: objPtr, cell: c}}
}

// element translates x[i] of a slice, array, string or map, and the next
// element of a range: an arbitrary value, an approximation unless x is
// itself arbitrary (an input).
func (t *translator) element(f *frame, i ssa.Value) {
	if ix, ok := i.(*ssa.Index); ok {
		t.indexPanic(f, ix.X, ix.Index)
	}
	if l, ok := i.(*ssa.Lookup); ok {
		if v, ok := t.pureLookup(f, l); ok {
			t.define(f, l, v)
			return
		}
		if m := t.val(f, l.X); m.obj != nil && m.obj.entries != nil {
			if v, ok := t.tableLookup(l, m.obj, t.val(f, l.Index)); ok {
				t.define(f, l, v)
				return
			}
		}
	}
	v := t.fresh(f.prefix+i.Name(), i.Type())
	var x ssa.Value
	switch i := i.(type) {
	case *ssa.Index:
		x = i.X
	case *ssa.Lookup:
		x = i.X
	case *ssa.Next:
		x = i.Iter.(*ssa.Range).X
	}
	if xv := t.val(f, x); (xv.obj == nil || !xv.obj.arbitrary) && !isString(x.Type()) {
		why := t.elementWhy(f, x)
		if _, isMap := i.(*ssa.Lookup); isMap && xv.obj != nil && xv.obj.approxElems != "" {
			why = xv.obj.approxElems
		}
		markValueApprox(v, why)
		t.lose(xv)
	}
	t.define(f, i, v)
}

// typeAssert translates x.(T) and x.(T) with comma-ok.
func (t *translator) typeAssert(f *frame, i *ssa.TypeAssert) {
	if v, ok := t.knownAssert(f, i); ok {
		if !i.CommaOk {
			t.knownPanic(f, i)
		}
		t.define(f, i, v)
		return
	}
	if v, ok := t.choiceAssert(f, i); ok {
		t.define(f, i, v)
		return
	}
	if !i.CommaOk {
		t.assertPanic(f, i)
	}
	if i.CommaOk {
		t.define(f, i, t.fresh(f.prefix+i.Name(), i.Type()))
		return
	}
	x := t.val(f, i.X)
	if x.expr != nil {
		if s, ok := sortOf(i.AssertedType); ok && s == x.expr.Sort() {
			t.define(f, i, x)
			return
		}
	}
	t.define(f, i, t.fresh(f.prefix+i.Name(), i.Type()))
}

// makeInterface translates the boxing of a concrete value.
func (t *translator) makeInterface(f *frame, i *ssa.MakeInterface) {
	x := t.val(f, i.X)
	if isError(i.Type()) {
		// A concrete value boxed as an error is non-nil, even a nil pointer.
		t.define(f, i, value{expr: ir.True, err: t.ownErrTypeTag(f, i)})
		return
	}
	if x.expr == nil {
		x.dyn = i.X.Type() // the dynamic type, for method calls on it
	} else {
		x.boxed = i.X.Type()
	}
	t.define(f, i, x)
}

// slice translates x[lo:hi].
func (t *translator) slice(f *frame, i *ssa.Slice) {
	x := t.val(f, i.X)
	if x.obj != nil && x.obj.kind == objPtr && x.obj.cell != nil && x.obj.cell.fields != nil && i.Low == nil && i.High == nil {
		// A slice of a whole array (variadic arguments): elements known.
		f.env[i] = value{obj: &object{kind: objSlice, cell: x.obj.cell, length: ir.IntLit(int64(len(x.obj.cell.fields)))}}
		return
	}
	if o, ok := t.prefixSlice(f, i, x); ok {
		f.env[i] = value{obj: o}
		return
	}
	t.lose(x) // the slice's elements are not tracked
	f.env[i] = value{obj: &object{kind: objSlice, length: t.freshLen(i.Name()), arbitrary: x.obj != nil && x.obj.arbitrary}}
}

// anonCell is a cell for memory the model does not track (a field reached
// through an unknown pointer): its scalar content is arbitrary.
func (t *translator) anonCell(typ types.Type, name string) *cell {
	c := t.newCell(typ, name, true)
	c.untracked = true
	return c
}

func (t *translator) storeTo(f *frame, addr ssa.Value, v value) {
	a := t.val(f, addr)
	if a.obj != nil && a.obj.kind == objPtr && a.obj.cell != nil {
		c := a.obj.cell
		if c.untracked {
			t.storeUntracked(c.typ, v)
		}
		t.store(c, v)
		return
	}
	if a.obj != nil && a.obj.kind == objNil {
		t.panicHere("panic: nil pointer dereference")
		return
	}
	if isChoicePtr(a) && t.storeChoice(a.obj, v) {
		return
	}
	// A store through a pointer the model does not track may write any
	// cell whose pointer escaped.
	elem := types.Type(nil)
	if p, ok := addr.Type().Underlying().(*types.Pointer); ok {
		elem = p.Elem()
	}
	t.storeUntracked(elem, v)
}

// elementWhy describes an element of container x for ir.Var.Approx.
func (t *translator) elementWhy(f *frame, x ssa.Value) string {
	file, line := t.l.position(t.pos)
	return fmt.Sprintf("an element of %s (%s:%d), which the model does not track", t.nameOf(f, x), file, line)
}

// inputElement records a read of an element of an input slice. Each read
// instruction gets its own arbitrary element, which is exact while a
// single instruction reads the slice; once a second one does, two reads
// of the same index could disagree, so every element read is marked as an
// approximation.
func (t *translator) inputElement(f *frame, i *ssa.IndexAddr, o *object, c *cell) {
	t.inputElementAt(i, t.nameOf(f, i.X), o, c)
}

// inputElementAt records a read by instruction i (an IndexAddr, or a call
// that reads a member: sqlx.In's list) of an element of input slice o,
// named name, into c (see inputElement).
func (t *translator) inputElementAt(i ssa.Instruction, name string, o *object, c *cell) {
	if t.elemSites == nil {
		t.elemSites = map[*object]map[ssa.Instruction]string{}
		t.elemCells = map[*object][]*cell{}
	}
	sites := t.elemSites[o]
	if sites == nil {
		sites = map[ssa.Instruction]string{}
		t.elemSites[o] = sites
	}
	file, line := t.l.position(i.Pos())
	sites[i] = fmt.Sprintf("%s:%d", file, line)
	t.elemCells[o] = append(t.elemCells[o], c)
	if len(sites) < 2 {
		return
	}
	var where []string
	for _, s := range sites {
		where = append(where, s)
	}
	sort.Strings(where)
	why := fmt.Sprintf("an element of %s read at %s (each read gets its own arbitrary element)", name, strings.Join(where, " and "))
	for _, ec := range t.elemCells[o] {
		t.markApproxDeep(ec, why, 0)
	}
}

// markApproxDeep marks c and every cell it holds.
func (t *translator) markApproxDeep(c *cell, why string, depth int) {
	if c == nil || depth > 4 {
		return
	}
	t.markApprox(c, why)
	for _, fc := range c.fields {
		t.markApproxDeep(fc, why, depth+1)
	}
	if c.refSet && c.ref.obj != nil && c.ref.obj.kind == objPtr {
		t.markApproxDeep(c.ref.obj.cell, why, depth+1)
	}
}

// markValueApprox marks the scalars of v as approximations.
func markValueApprox(v value, why string) {
	if x, ok := v.expr.(*ir.Var); ok {
		x.Approx = why
	}
	for _, fv := range v.fields {
		markValueApprox(fv, why)
	}
	for _, tv := range v.tuple {
		markValueApprox(tv, why)
	}
}

func (t *translator) indexAddr(f *frame, i *ssa.IndexAddr) {
	x := t.val(f, i.X)
	if x.obj != nil && x.obj.coll != nil && x.obj.cell == nil {
		if v, ok := t.collectedElem(f, i, x.obj); ok {
			f.env[i] = v
			return
		}
	}
	var c *cell
	if k, ok := i.Index.(*ssa.Const); ok && x.obj != nil {
		idx, exact := constant.Int64Val(k.Value)
		if exact {
			switch {
			case x.obj.kind == objPtr && x.obj.cell != nil && x.obj.cell.fields != nil:
				c = t.field(x.obj.cell, int(idx))
			case x.obj.kind == objSlice && x.obj.cell != nil:
				c = t.field(x.obj.cell, int(idx))
			}
		}
	}
	if c == nil && x.obj != nil && x.obj.cell != nil {
		// A variable index into an array the model tracks: the element's
		// pointers may be stored elsewhere.
		t.lose(x)
		if v, ok := t.choiceElem(x, t.val(f, i.Index).expr); ok {
			f.env[i] = v
			return
		}
	}
	if c == nil && x.obj != nil && x.obj.arbitrary {
		if sc := t.sameElement(f, i, x.obj); sc != nil {
			f.env[i] = value{obj: &object{kind: objPtr, cell: sc}}
			return
		}
	}
	if c == nil {
		// An element of a slice or array: arbitrary content.
		c = t.anonCell(i.Type().(*types.Pointer).Elem(), f.prefix+t.exprName(f, i.X)+"[i]")
		if x.obj == nil || !x.obj.arbitrary {
			t.markApprox(c, t.elementWhy(f, i.X))
		} else if x.obj.approxElems != "" {
			t.markApproxDeep(c, x.obj.approxElems, 0)
		} else {
			t.inputElement(f, i, x.obj, c)
			t.noteElement(f, i, x.obj, c)
		}
		// A new element each time the instruction runs (every scalar of a
		// struct element, and of what a pointer element points to, too).
		if c.v == nil && c.fields == nil {
			t.load(c, c.name)
		}
		t.havocCell(c, 0)
	}
	f.env[i] = value{obj: &object{kind: objPtr, cell: c}}
}

func (t *translator) unop(f *frame, i *ssa.UnOp) value {
	x := t.val(f, i.X)
	switch i.Op {
	case token.NOT:
		if x.expr != nil {
			return value{expr: ir.Not(x.expr)}
		}
	case token.XOR:
		if r, ok := rangeOf(i.Type()); ok && x.expr != nil {
			t.emit(&ir.Assume{Cond: r.holds(x.expr), Info: t.info(ir.KindFact, "")})
			return value{expr: complement(r, x.expr)}
		}
	case token.SUB:
		if x.expr != nil {
			if v, ok := t.wrapNeg(i, x.expr); ok {
				return value{expr: v}
			}
			return value{expr: ir.Neg(x.expr)}
		}
	case token.MUL:
		if g, ok := i.X.(*ssa.Global); ok && isDecimalZero(g) {
			return value{expr: ir.Zero(ir.Real)}
		}
		if g, ok := i.X.(*ssa.Global); ok {
			if c, ok := t.l.constGlobal(g); ok {
				if text, isText := constString(c); isText {
					return t.staticString(text)
				}
				return t.constant(c)
			}
		}
		if x.obj != nil && x.obj.kind == objPtr && x.obj.cell != nil {
			v := t.load(x.obj.cell, f.prefix+t.nameOf(f, i))
			if lv, ok := v.expr.(*ir.Var); ok && userNamed(f, i) {
				lv.Named = true
			}
			if g := t.sentinelLoad(i); g != nil {
				v.err = sentinelErr(g)
			}
			return v
		}
		if isChoicePtr(x) {
			if v, ok := t.loadChoice(x.obj, f.prefix+t.nameOf(f, i)); ok {
				return v
			}
		}
	}
	return t.fresh(f.prefix+i.Name(), i.Type())
}

func (t *translator) binop(f *frame, i *ssa.BinOp) value {
	x, y := t.val(f, i.X), t.val(f, i.Y)
	if isString(i.X.Type()) {
		if v, ok := t.stringBinop(f, i, x, y); ok {
			return v
		}
	}
	if isError(i.X.Type()) || isError(i.Y.Type()) {
		return t.errCompare(f, i, x, y)
	}
	if v, ok := nilCompare(i, x, y); ok {
		return v
	}
	if v, ok := t.nilCompareChoice(f, i); ok {
		return v
	}
	if x.expr == nil || y.expr == nil {
		return t.fresh(f.prefix+i.Name(), i.Type())
	}
	if isDecimal(i.X.Type()) && (i.Op == token.EQL || i.Op == token.NEQ) {
		// == on Decimal structs compares their big.Int pointers: true
		// only for equal numbers, but equal numbers may compare false.
		b := t.freshVar(f.prefix+i.Name(), ir.Bool, ir.KindBranch)
		t.emit(&ir.Assume{Cond: ir.Implies(b, ir.Cmp(ir.OpEq, x.expr, y.expr)), Info: t.info(ir.KindModel, "")})
		if i.Op == token.NEQ {
			return value{expr: ir.Not(b)}
		}
		return value{expr: b}
	}
	if w := unsignedWidth(i.Type()); w > 0 && i.Op == token.SUB {
		// Unsigned subtraction wraps around: st-q with q > st is a large
		// number, never negative (the classic "if st-q < 0" that cannot
		// fire). Modelled exactly, for operands in the type's range.
		if r, ok := rangeOf(i.Type()); ok {
			t.emit(&ir.Assume{Cond: ir.And(r.holds(x.expr), r.holds(y.expr)), Info: t.info(ir.KindFact, "")})
		}
		d := ir.Sub(x.expr, y.expr)
		mod := ir.BigInt(new(big.Int).Lsh(big.NewInt(1), uint(w)))
		return value{expr: ir.IteOf(ir.Cmp(ir.OpGe, x.expr, y.expr), d, ir.Add(d, mod))}
	}
	if v, ok := t.wrapArith(i, x.expr, y.expr); ok {
		return value{expr: v}
	}
	if v, ok := t.roundedFloat(f, i, x.expr, y.expr); ok {
		return value{expr: v}
	}
	t.noteOverflow(i)
	t.noteFloat(i)
	if op, ok := arithOps[i.Op]; ok {
		if i.Op == token.QUO || i.Op == token.REM {
			t.divPanic(i, y.expr)
		}
		return value{expr: ir.Arith(op, x.expr, y.expr)}
	}
	if op, ok := cmpOps[i.Op]; ok {
		c := ir.Cmp(op, x.expr, y.expr)
		if x.expr.Sort() == ir.Real && y.expr.Sort() == ir.Real {
			c = t.floatCompare(i.Op, c, x.expr, y.expr, t.nameOf(f, i.X))
		}
		return value{expr: c}
	}
	if v, ok := t.bitwise(f, i, x.expr, y.expr); ok {
		return v
	}
	return t.fresh(f.prefix+i.Name(), i.Type())
}

// arithOps and cmpOps are the Go operators with an IR counterpart.
var (
	arithOps = map[token.Token]ir.Op{
		token.ADD: ir.OpAdd, token.SUB: ir.OpSub, token.MUL: ir.OpMul, token.QUO: ir.OpDiv, token.REM: ir.OpMod,
	}
	cmpOps = map[token.Token]ir.Op{
		token.EQL: ir.OpEq, token.NEQ: ir.OpNe, token.LSS: ir.OpLt,
		token.LEQ: ir.OpLe, token.GTR: ir.OpGt, token.GEQ: ir.OpGe,
	}
)

func (t *translator) convert(f *frame, i *ssa.Convert) value {
	x := t.val(f, i.X)
	to, okTo := sortOf(i.Type())
	from, okFrom := sortOf(i.X.Type())
	if !okTo || !okFrom || x.expr == nil {
		return t.fresh(f.prefix+i.Name(), i.Type())
	}
	if isString(i.Type()) != isString(i.X.Type()) {
		return t.fresh(f.prefix+i.Name(), i.Type())
	}
	if isString(i.Type()) {
		return x
	}
	switch {
	case from == to:
		if from == ir.Int {
			// The operand is a value of its type: in its range (a fact
			// of Go). Without it, an int64 scanned from a BIGINT column
			// could exceed 2^63-1 and uint(stock) wrap where no real row
			// can make it (adv8 F1), and int64(cents) of an int32 take a
			// value no int32 holds (adv10 m1).
			if r, ok := rangeOf(i.X.Type()); ok {
				if _, c := i.X.(*ssa.Const); !c {
					t.emit(&ir.Assume{Cond: r.holds(x.expr), Info: t.info(ir.KindFact, "")})
				}
			}
			if e, ok := wrapConversion(i, x.expr); ok {
				return value{expr: e}
			}
		}
		if from == ir.Real {
			return value{expr: t.convertedFloat(f, i, x.expr)}
		}
		return value{expr: x.expr}
	case from == ir.Int && to == ir.Real:
		return value{expr: t.convertedFloat(f, i, ir.AsReal(x.expr))}
	case from == ir.Real && to == ir.Int:
		// float to int truncates toward zero; NaN and values out of
		// range give any value (floatnan.go).
		return value{expr: t.floatToInt(f, i, x.expr)}
	}
	return t.fresh(f.prefix+i.Name(), i.Type())
}

// compareStrings evaluates a Go comparison of two strings.
func compareStrings(op token.Token, a, b string) (result, ok bool) {
	c := strings.Compare(a, b)
	switch op {
	case token.EQL:
		return c == 0, true
	case token.NEQ:
		return c != 0, true
	case token.LSS:
		return c < 0, true
	case token.LEQ:
		return c <= 0, true
	case token.GTR:
		return c > 0, true
	case token.GEQ:
		return c >= 0, true
	}
	return false, false
}
