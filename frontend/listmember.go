package frontend

import (
	"go/types"
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// A list a library call expands into placeholders (sqlx.In's `IN (?)`)
// binds one member of the list: the statement's WHERE holds of the
// watched row when the row's key equals some member. When the list is a
// slice the entry gets as input (an argument, or memory one reaches: its
// length an ir.Input), its elements are arbitrary, so one
// arbitrary member is exact, as an element the program reads from such a
// slice is (inputElement): a run chooses the list [member] (or the member
// repeated to the list's length, which an IN list treats the same). A
// second instruction that reads the slice's elements makes every element
// read, the member too, an approximation. Any other list (one the
// program built, which the model does not track element by element)
// binds a marked approximation (adv18 bulk ReleaseAll: a true UNSAFE was
// UNKNOWN).

func (b *libCall) ListMember(param, i int) (dblib.Value, dblib.Value, bool) {
	elems := b.t.sliceElems(argAt(b.args, param))
	if i < 0 || i >= len(elems) {
		return nil, nil, false
	}
	o := elems[i].obj
	if o == nil || o.kind != objSlice || !o.arbitrary || o.approxElems != "" || o.cell != nil {
		return nil, nil, false
	}
	if n, ok := o.length.(*ir.Var); !ok || n.Kind != ir.Input {
		// Not the entry's own slice: a slice of it (ids[1:]) has elements
		// of ids that another read of ids could see, and a slice outside
		// code returned is no input a run can choose.
		return nil, nil, false
	}
	st, ok := b.paramType(param, i).(*types.Slice)
	if !ok || !plainScalar(st.Elem()) || types.Identical(st.Elem(), types.Typ[types.Byte]) {
		return nil, nil, false // ([]byte is bound as one value)
	}
	name := sliceName(o)
	c := b.t.anonCell(st.Elem(), name+"[i]")
	b.t.inputElementAt(b.instr, name, o, c)
	b.t.havocCell(c, 0)
	member := b.t.load(c, c.name)
	return member, value{expr: ir.Cmp(ir.OpLe, o.length, ir.IntLit(0))}, true
}

func (b *libCall) PlainParam(param, i int) bool {
	typ := b.paramType(param, i)
	if st, ok := typ.(*types.Slice); ok {
		typ = st.Elem()
	}
	return typ != nil && plainScalar(typ)
}

func (b *libCall) ErrWhen(conds ...dblib.Value) dblib.Value {
	var xs []ir.Expr
	for _, c := range conds {
		x := asValue(c).expr
		if x == nil || x.Sort() != ir.Bool {
			return b.Err()
		}
		xs = append(xs, x)
	}
	return value{expr: ir.Or(xs...)}
}

// paramType is the Go type of element i of the call's variadic argument
// param (the value boxed into its ...any slice); nil when not known.
func (b *libCall) paramType(param, i int) types.Type {
	c := b.instr.Common()
	if c.IsInvoke() || param < 0 || param >= len(c.Args) || len(c.Args) != len(b.args) {
		return nil
	}
	return variadicArgTypes(c.Args[param])[i]
}

// plainScalar reports whether typ is a predeclared integer or string
// type: a value a driver binds as it is (no methods, no driver.Valuer).
func plainScalar(typ types.Type) bool {
	bt, ok := typ.(*types.Basic)
	return ok && bt.Info()&(types.IsInteger|types.IsString) != 0
}

// sliceName names input slice o after its length variable (len(ids):
// ids), as its elements read by index are named.
func sliceName(o *object) string {
	if v, ok := o.length.(*ir.Var); ok && strings.HasPrefix(v.Name, "len(") && strings.HasSuffix(v.Name, ")") {
		return v.Name[len("len(") : len(v.Name)-1]
	}
	return "list"
}
