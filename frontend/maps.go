package frontend

// Map literals whose contents the model knows: a composite literal with
// constant string keys, final when its block ends (mapLiteral). Their
// entries bind named placeholders (pgx.NamedArgs) and resolve a
// dispatcher's table of operations (ops[name](…), tableLookup).

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// mapLiteral reports whether m is a map whose contents are final when its
// block ends: a composite literal with constant string keys that is only
// filled in its own block and otherwise only boxed (passed to a call as
// pgx.NamedArgs{"id": id}) or read (a dispatcher's table of operations).
func mapLiteral(m *ssa.MakeMap) bool {
	if _, ok := m.Type().Underlying().(*types.Map).Key().Underlying().(*types.Basic); !ok || !isString(m.Type().Underlying().(*types.Map).Key()) {
		return false
	}
	for _, r := range *m.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			if _, isConst := r.Key.(*ssa.Const); !isConst || r.Block() != m.Block() || r.Value == ssa.Value(m) {
				return false
			}
		case *ssa.MakeInterface, *ssa.DebugRef, *ssa.Lookup:
		default:
			return false
		}
	}
	return true
}

// isFuncValue reports whether v is a function value the model resolves.
func isFuncValue(v value) bool {
	return v.obj != nil && (v.obj.kind == objClosure || v.obj.kind == objFunc) && v.obj.alts == nil
}

// tableLookup is m[key] (comma-ok or not) of a map literal holding
// function values (a dispatcher's table of operations): the function of
// the key, or, when the key is not known, a choice among the table's
// functions by key, with ok false for any other key.
func (t *translator) tableLookup(l *ssa.Lookup, m *object, key value) (value, bool) {
	if len(m.entries) == 0 || key.expr == nil {
		return value{}, false
	}
	keys := make([]string, 0, len(m.entries))
	for k, v := range m.entries {
		if !isFuncValue(v) {
			return value{}, false
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	choice := &object{kind: objClosure}
	found := ir.Expr(ir.False)
	for _, k := range keys {
		c := ir.Eq(key.expr, ir.StringCode(k))
		choice.alts = append(choice.alts, m.entries[k].obj)
		choice.altConds = append(choice.altConds, c)
		found = ir.Or(found, c)
	}
	fn := value{obj: choice}
	if key.strKnown {
		fn, found = value{obj: &object{kind: objNil}}, ir.False
		if v, ok := m.entries[key.str]; ok {
			fn, found = v, ir.True
		}
	}
	if l.CommaOk {
		return value{tuple: []value{fn, {expr: found}}}, true
	}
	return fn, true
}
