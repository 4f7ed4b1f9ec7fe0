package frontend

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// This file models what sqlx and pgx add to database/sql: scanning a row
// into a struct by column name, Select into a slice, :name parameters
// bound from a struct, and helper functions (sqlx.In, pgx.BeginFunc).

// freshResults is fresh for a call's result tuple; nil results (a call
// whose result the caller builds itself) give the opaque value.
func (t *translator) freshResults(name string, results *types.Tuple) value {
	if results == nil {
		return value{}
	}
	return t.fresh(name, results)
}

// resultColumns returns the names of the columns a row of src has (the
// SELECT list or the RETURNING list), "*" for a star, "" for an unnamed
// expression.
func (t *translator) resultColumns(src *object) []string {
	var items []sqlir.SelectItem
	switch s := src.sql.(type) {
	case *sqlir.Select:
		items = s.Columns
	default:
		if src.execErr == nil {
			return nil
		}
		stmt, err := t.parse(src.text)
		if err != nil {
			return nil
		}
		items, _ = returning(stmt)
	}
	out := make([]string, len(items))
	for i, it := range items {
		switch {
		case it.Star:
			out[i] = "*"
		case it.Alias != "":
			out[i] = strings.ToLower(it.Alias)
		default:
			if c, ok := it.Expr.(*sqlir.ColRef); ok {
				out[i] = strings.ToLower(c.Name)
			}
		}
	}
	return out
}

// expandStar replaces a SELECT's `*` by the table's columns when the
// schema knows them.
func (t *translator) expandStar(src *object) {
	sel, ok := src.sql.(*sqlir.Select)
	if !ok || t.l.cfg.Schema == nil || sel.Complex {
		return
	}
	tab := t.l.cfg.Schema.Tables[strings.ToLower(sel.Table)]
	if tab == nil {
		return
	}
	var cols []sqlir.SelectItem
	changed := false
	for _, it := range sel.Columns {
		if !it.Star {
			cols = append(cols, it)
			continue
		}
		changed = true
		for _, c := range tab.Columns {
			cols = append(cols, sqlir.SelectItem{Expr: &sqlir.ColRef{Name: c.Name}})
		}
	}
	if changed {
		cp := *sel
		cp.Columns = cols
		o := *src
		o.sql = &cp
		*src = o
	}
}

// structScan reads one row of src into dest as sqlx's Get and StructScan
// do: a pointer to a scalar takes the single column; a pointer to a
// struct takes each column into the field of the same `db` name.
func (t *translator) structScan(src *object, dest value) value {
	if src != nil && src.alts != nil {
		return t.forAlts(src, func(o *object) value { return t.structScan(o, dest) })
	}
	if src == nil || (src.kind != objRow && src.kind != objRows) {
		return t.scan(src, nil, false)
	}
	if dest.obj == nil || dest.obj.kind != objPtr || dest.obj.cell == nil {
		// Memory the model does not track: only the error matters.
		return t.scan(src, nil, false)
	}
	c := dest.obj.cell
	if c.v != nil {
		return t.scan(src, []value{dest}, false)
	}
	st, ok := c.typ.Underlying().(*types.Struct)
	if !ok {
		t.havocCell(c, 0)
		return t.scan(src, nil, false)
	}
	cp := *src
	t.expandStar(&cp)
	cols := t.resultColumns(&cp)
	fields := t.fieldsByColumn(c, st, 0)
	dests := make([]value, len(cols))
	for i, name := range cols {
		if name == "*" {
			// Columns unknown without a schema: every field may change.
			t.havocCell(c, 0)
			continue
		}
		if fc := fields[name]; fc != nil {
			dests[i] = value{obj: &object{kind: objPtr, cell: fc}}
		}
	}
	return t.scan(&cp, dests, false)
}

// fieldsByColumn maps sqlx column names to the field cells of a struct
// cell, through embedded structs.
func (t *translator) fieldsByColumn(c *cell, st *types.Struct, depth int) map[string]*cell {
	out := map[string]*cell{}
	if depth > 4 {
		return out
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		fc := t.field(c, i)
		if fc == nil {
			continue
		}
		if f.Embedded() {
			if _, tagged := reflect.StructTag(st.Tag(i)).Lookup("db"); !tagged {
				if est, ok := fc.typ.Underlying().(*types.Struct); ok && fc.fields != nil {
					for k, v := range t.fieldsByColumn(fc, est, depth+1) {
						if out[k] == nil {
							out[k] = v
						}
					}
					continue
				}
			}
		}
		if name := dblib.ColumnName(f, st.Tag(i)); name != "" {
			out[strings.ToLower(name)] = fc
		}
	}
	return out
}

// selectInto is sqlx's Select: the query's rows go into the slice dest
// points to (its elements are not tracked: the slice gets a new length).
func (t *translator) selectInto(rows value, dest value) value {
	errV := t.freshVar("err", ir.Bool, ir.KindSQL)
	if len(rows.tuple) == 2 && rows.tuple[1].expr != nil {
		t.emit(&ir.Assume{Cond: ir.Implies(rows.tuple[1].expr, errV), Info: t.info(ir.KindModel, "")})
	}
	if dest.obj != nil && dest.obj.kind == objPtr && dest.obj.cell != nil {
		c := dest.obj.cell
		if c.v != nil || c.fields != nil {
			t.havocCell(c, 0)
		} else {
			t.store(c, value{obj: &object{kind: objSlice, length: t.freshLen("select()")}})
		}
	}
	return value{expr: errV}
}

// namedArgs returns the values sqlx binds to :name parameters from arg, a
// struct (or pointer to one) by `db` names, or a map; nil entries are
// unknown (missing fields). floats are the parameters bound to Go floats
// (floatValues).
func (t *translator) namedArgs(arg value, typ types.Type, names []string) (_ []ir.Expr, floats map[int]bool) {
	out := make([]ir.Expr, len(names))
	var byName map[string]*cell
	var vals map[string]value
	switch {
	case arg.obj != nil && arg.obj.kind == objPtr && arg.obj.cell != nil:
		c := arg.obj.cell
		if st, ok := c.typ.Underlying().(*types.Struct); ok {
			byName = t.fieldsByColumn(c, st, 0)
		}
	case arg.fields != nil && typ != nil:
		if st, ok := typ.Underlying().(*types.Struct); ok {
			vals = map[string]value{}
			for i := 0; i < st.NumFields() && i < len(arg.fields); i++ {
				if name := dblib.ColumnName(st.Field(i), st.Tag(i)); name != "" {
					v := arg.fields[i]
					v.dyn = st.Field(i).Type()
					vals[strings.ToLower(name)] = v
				}
			}
		}
	case isMap(typ):
		return t.namedFromMap(arg, names)
	}
	bound := make([]value, len(names))
	for i, n := range names {
		n = strings.ToLower(n)
		if fc := byName[n]; fc != nil && fc.v != nil {
			bound[i] = t.load(fc, n)
			bound[i].dyn = fc.typ
		} else if v, ok := vals[n]; ok {
			bound[i] = v
		}
		out[i] = bound[i].expr
	}
	return out, floatValues(bound)
}

// namedFromMap binds :name parameters from a map argument (sqlx binds a
// map[string]any by key): the values of a map whose keys are all known
// constants (a literal, or stores of constant keys), and for a name the
// analysis cannot look up, a value it marks as an approximation — a
// counterexample resting on it is UNKNOWN, not an UNSAFE (an independent
// tester's sqlxmap: the map's values were arbitrary, a false UNSAFE).
func (t *translator) namedFromMap(arg value, names []string) (_ []ir.Expr, floats map[int]bool) {
	out := make([]ir.Expr, len(names))
	bound := make([]value, len(names))
	for i, n := range names {
		if arg.obj != nil && arg.obj.entries != nil {
			if v, ok := arg.obj.entries[n]; ok && v.expr != nil {
				out[i], bound[i] = v.expr, v
				continue
			}
		}
		v := t.freshVar(":"+n, ir.Int, ir.KindSQL)
		v.Approx = fmt.Sprintf("named parameter :%s bound from a map whose entry the analysis does not know", n)
		out[i] = v
	}
	return out, floatValues(bound)
}

func isMap(typ types.Type) bool {
	if typ == nil {
		return false
	}
	_, ok := typ.Underlying().(*types.Map)
	return ok
}

// callValue calls a function value of the module (a closure or a function).
func (t *translator) callValue(fn value, args []value) value {
	o := fn.obj
	if t.l.inModule(o.fn) {
		return t.inline(o.fn, args, o.bindings)
	}
	t.unsupported("call of %s, which is not analysed", o.fn.Name())
	return t.fresh(o.fn.Name()+"()", o.fn.Signature.Results())
}

// callbacks checks function values handed to code the model does not
// see (a library that calls them back). Such a function is an entry point
// of its own (escapingFuncs), verified from any consistent state; one that
// holds a transaction this entry began would run inside it, which is not
// modelled.
func (t *translator) callbacks(args []value, callee string) {
	for _, a := range args {
		if a.obj == nil || (a.obj.kind != objClosure && a.obj.kind != objFunc) || a.obj.fn == nil {
			continue
		}
		holdsTx := false
		for _, b := range a.obj.bindings {
			if b.obj != nil && b.obj.kind == objTx && b.obj.tx != 0 {
				holdsTx = true
			}
		}
		if !holdsTx {
			continue
		}
		if r := t.l.reach()[a.obj.fn]; r != nil && (r.UnknownSQL || len(r.Tables) > 0) {
			t.unsupported("function %s, which uses this transaction, passed to %s", a.obj.fn.Name(), callee)
			return
		}
	}
}
