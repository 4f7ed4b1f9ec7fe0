package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Nullable arguments: a placeholder bound to a library's nullable value
// (sql.NullInt64{Int64: n, Valid: n > 0}, sql.Null[T]) is NULL where Valid
// is false, else the value field. The SQL is rewritten so that the row
// model sees it: $i becomes CASE WHEN $k THEN NULL ELSE $i END, $k a new
// placeholder bound to !Valid, and $i bound to the value field. Before, the
// argument was unknown, and a write of it to a nullable column UNKNOWN
// ("whether an expression that may be NULL is NULL", adv8 F8) even where
// the program is plainly unsafe.

// nullableArg returns, for an argument that is a nullable value of a
// library whose fields the model tracks and whose value is an integer or
// a string, the value field and "it is NULL".
func nullableArg(v value) (val, null ir.Expr, ok bool) {
	if v.fields == nil || v.dyn == nil {
		return nil, nil, false
	}
	validName, isNullable := dblib.Nullable(v.dyn)
	st, isStruct := v.dyn.Underlying().(*types.Struct)
	if !isNullable || !isStruct || st.NumFields() != 2 || len(v.fields) != 2 {
		return nil, nil, false
	}
	for i := 0; i < 2; i++ {
		f := v.fields[i].expr
		if f == nil {
			return nil, nil, false
		}
		if st.Field(i).Name() == validName {
			null = ir.Not(f)
		} else {
			val = f
		}
	}
	if val == nil || null == nil || val.Sort() != ir.Int || null.Sort() != ir.Bool {
		return nil, nil, false
	}
	return val, null, true
}

// bindNullArgs rewrites the placeholders of stmt bound to nullable values
// (t.argNulls, taken) into CASE WHEN <is null> THEN NULL ELSE $i END, the
// NULL-ness bound to a new placeholder.
func (t *translator) bindNullArgs(stmt sqlir.Statement, args []ir.Expr) (sqlir.Statement, []ir.Expr) {
	nulls := t.argNulls
	t.argNulls = nil
	if len(nulls) == 0 {
		return stmt, args
	}
	out := append([]ir.Expr(nil), args...)
	flags := map[int]int{} // placeholder → its NULL-ness placeholder
	stmt = sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		p, ok := e.(*sqlir.Param)
		if !ok {
			return nil, false
		}
		null, ok := nulls[p.Index]
		if !ok || p.Index >= len(args) {
			return nil, false
		}
		k, seen := flags[p.Index]
		if !seen {
			out = append(out, null)
			k = len(out) - 1
			flags[p.Index] = k
		}
		return &sqlir.Case{Whens: []sqlir.When{{Cond: &sqlir.Param{Index: k}, Val: &sqlir.Null{}}}, Else: &sqlir.Param{Index: p.Index}}, true
	})
	return stmt, out
}

// nullablePhi translates a φ of a library's nullable values (var c
// sql.NullInt64; if n > 0 { c = sql.NullInt64{Int64: n, Valid: true} })
// whose every incoming value is known, field by field, or the zero value:
// a struct of variables, one per field, assigned on the incoming edges
// (fieldMoves), so that an argument bound to it is NULL where Valid is
// false on the path taken (adv14 p19: the φ was opaque, and `$1 IS NULL`
// on it an approximation). False for any other φ.
func (t *translator) nullablePhi(f *frame, p *ssa.Phi) (value, bool) {
	if _, ok := dblib.Nullable(p.Type()); !ok {
		return value{}, false
	}
	st, ok := p.Type().Underlying().(*types.Struct)
	if !ok {
		return value{}, false
	}
	for _, e := range p.Edges {
		if isNilConst(e) {
			continue // the zero value
		}
		v, ok := t.peek(f, e)
		if !ok || !scalarFields(v, st.NumFields()) {
			return value{}, false
		}
	}
	fs := make([]value, st.NumFields())
	for i := range fs {
		s, ok := sortOf(st.Field(i).Type())
		if !ok {
			return value{}, false
		}
		fs[i] = value{expr: t.p.NewVar(f.prefix+t.nameOf(f, p)+"."+st.Field(i).Name(), s, ir.Local)}
	}
	if f.fieldPhis == nil {
		f.fieldPhis = map[*ssa.Phi]bool{}
	}
	f.fieldPhis[p] = true
	return value{fields: fs}, true
}

// scalarFields reports whether v is a struct value of n fields, each a
// scalar the model knows.
func scalarFields(v value, n int) bool {
	if len(v.fields) != n {
		return false
	}
	for _, fv := range v.fields {
		if fv.expr == nil {
			return false
		}
	}
	return true
}

// fieldMoves returns the assignments of the field variables of the
// nullable φ value pv on the edge that brings in: its fields, or zeros.
func (t *translator) fieldMoves(f *frame, pv value, in ssa.Value) ([]*ir.Var, []ir.Expr) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	x := t.val(f, in)
	for i, fv := range pv.fields {
		v := fv.expr.(*ir.Var)
		var e ir.Expr = ir.Zero(v.Type)
		if !isNilConst(in) {
			e = convertSort(x.fields[i].expr, v.Type)
		}
		lhs, rhs = append(lhs, v), append(rhs, e)
	}
	return lhs, rhs
}
