package frontend

// Returning from an inlined call: results assigned to the frame's result
// variables, struct results merged field by field.

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// ret assigns the results and leaves the frame.
func (t *translator) ret(f *frame, r *ssa.Return) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	for i, res := range r.Results {
		v := t.val(f, res)
		if f.results[i] != nil {
			if ts := v.texts(); ts != nil && f.textOK[i] {
				f.texts[i] = append(f.texts[i], ts...)
			} else {
				f.textOK[i] = false
			}
			if !f.errSet[i] {
				f.errs[i], f.errSet[i] = v.err, true
			} else {
				f.errs[i] = joinErr(f.errs[i], v.err)
			}
			x := v.expr
			if x == nil {
				x = t.freshVar(f.results[i].Name, f.results[i].Type, ir.KindReturn)
			}
			lhs = append(lhs, f.results[i])
			rhs = append(rhs, convertSort(x, f.results[i].Type))
			if f.errRes[i] != nil {
				t.identityMoves(f.errRes[i], v, t.exprName(f, res), &lhs, &rhs)
			}
			continue
		}
		if f.isStructRes(i) {
			t.assignStruct(f, fmt.Sprint(i), f.objRes[i], v, &lhs, &rhs)
			continue
		}
		if rt := f.resTypes[i]; rt != nil {
			lhs, rhs = t.returnType(rt, v, lhs, rhs)
		}
		lhs, rhs = f.returnRows(i, v, lhs, rhs)
		t.mergeObjResult(f, i, v)
		f.rowsResult(i)
	}
	info := t.info(ir.KindReturn, "")
	if len(lhs) > 0 {
		t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: info})
	}
	t.edge(f.ret, &ir.Assume{Cond: ir.True, Info: info})
}

// mergeObjResult merges the non-scalar result v of a return into
// f.objRes[i]: the common value of the returns, the non-nil one where
// the others return nil, else an opaque value (both lost).
func (t *translator) mergeObjResult(f *frame, i int, v value) {
	switch {
	case !f.objSet[i]:
		f.objRes[i], f.objSet[i] = v, true
	case sameValue(f.objRes[i], v):
	case f.objRes[i].obj != nil && v.obj != nil && v.obj.kind == objNil:
		// keep the non-nil one; nil results go with errors
	case v.obj != nil && f.objRes[i].obj != nil && f.objRes[i].obj.kind == objNil:
		f.objRes[i] = v
	default:
		t.lose(f.objRes[i])
		t.lose(v)
		f.objRes[i] = value{}
	}
}

func (f *frame) isStructRes(i int) bool {
	for _, j := range f.structRes {
		if j == i {
			return true
		}
	}
	return false
}

// structResult returns a struct value whose scalar fields are new
// variables (nested structs alike); other fields are opaque.
func (t *translator) structResult(name string, st *types.Struct, depth int) value {
	fs := make([]value, st.NumFields())
	for i := range fs {
		fname := name + "." + st.Field(i).Name()
		ft := st.Field(i).Type()
		if s, ok := sortOf(ft); ok {
			v := t.p.NewVar(fname, s, ir.Local)
			v.Str = isStringType(ft)
			fs[i] = value{expr: v}
		} else if sub, ok := ft.Underlying().(*types.Struct); ok && depth < 4 {
			fs[i] = t.structResult(fname, sub, depth+1)
		}
		if t.internalField(st.Field(i)) {
			markInternal(fs[i])
		}
	}
	return value{fields: fs}
}

// assignStruct assigns the scalar fields of returned value v to the
// result variables of tmpl (arbitrary where v's field is unknown) and
// merges its other fields into f.structObj.
func (t *translator) assignStruct(f *frame, path string, tmpl, v value, lhs *[]*ir.Var, rhs *[]ir.Expr) {
	for i, fv := range tmpl.fields {
		var x value
		if i < len(v.fields) {
			x = v.fields[i]
		}
		key := path + "." + fmt.Sprint(i)
		switch {
		case fv.expr == nil && fv.fields == nil:
			if f.structObj == nil {
				f.structObj = map[string]value{}
			}
			if old, ok := f.structObj[key]; !ok {
				f.structObj[key] = x
			} else if !sameValue(old, x) {
				t.lose(old)
				t.lose(x)
				f.structObj[key] = value{}
			}
		case fv.expr != nil:
			r := fv.expr.(*ir.Var)
			e := x.expr
			if e == nil {
				e = t.freshVar(r.Name, r.Type, ir.KindReturn)
			}
			*lhs = append(*lhs, r)
			*rhs = append(*rhs, convertSort(e, r.Type))
		case fv.fields != nil:
			t.assignStruct(f, key, fv, x, lhs, rhs)
		}
	}
}

// structOut returns a struct result: tmpl with its non-scalar fields
// replaced by their merged values.
func (f *frame) structOut(path string, tmpl value) value {
	out := value{fields: make([]value, len(tmpl.fields))}
	for i, fv := range tmpl.fields {
		key := path + "." + fmt.Sprint(i)
		switch {
		case fv.expr != nil:
			out.fields[i] = fv
		case fv.fields != nil:
			out.fields[i] = f.structOut(key, fv)
		default:
			out.fields[i] = f.structObj[key]
		}
	}
	return out
}
