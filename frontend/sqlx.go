package frontend

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
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

// compileNamed rewrites sqlx :name parameters for the program's dialect.
func (l *Loaded) compileNamed(query string) (string, []string) {
	return compileNamed(query, l.Dialect == sqlparse.Postgres)
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
		stmt, err := t.l.parse(src.text)
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
		if name := dbColumnName(f, st.Tag(i)); name != "" {
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
// struct (or pointer to one) by `db` names; nil entries are unknown (maps,
// missing fields).
func (t *translator) namedArgs(arg value, typ types.Type, names []string) []ir.Expr {
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
				if name := dbColumnName(st.Field(i), st.Tag(i)); name != "" {
					vals[strings.ToLower(name)] = arg.fields[i]
				}
			}
		}
	}
	for i, n := range names {
		n = strings.ToLower(n)
		if fc := byName[n]; fc != nil && fc.v != nil {
			out[i] = t.load(fc, n).expr
		} else if v, ok := vals[n]; ok {
			out[i] = v.expr
		}
	}
	return out
}

// libFunction translates a library function that is not on a handle:
// sqlx.In, sqlx.Rebind, sqlx.Named, pgx.BeginFunc and pgx.BeginTxFunc.
func (t *translator) libFunction(f *frame, instr ssa.CallInstruction, a apiCall, args []value, results *types.Tuple) value {
	arg := func(i int) value { return argAt(args, i) }
	switch {
	case a.pkg == "github.com/jmoiron/sqlx" && a.name == "Rebind":
		return arg(1)
	case a.pkg == "github.com/jmoiron/sqlx" && a.name == "In":
		// `IN (?)` with a slice: the text is kept and the expanded values
		// are unknown; one arbitrary value per placeholder covers any
		// member of the list for the watched row.
		return value{tuple: []value{arg(0), t.fresh("args", results.At(1).Type()), {expr: t.freshVar("err", ir.Bool, ir.KindCall)}}}
	case a.pkg == "github.com/jmoiron/sqlx" && (a.name == "Named" || a.name == "BindNamed"):
		q := arg(0)
		if a.name == "BindNamed" {
			q = arg(1)
		}
		if q.strKnown {
			// sqlx.Named always binds with `?`; BindNamed with the driver's
			// bind type (the dialect's).
			dollar := a.name == "BindNamed" && t.l.Dialect == sqlparse.Postgres
			text, _ := compileNamed(q.str, dollar)
			return value{tuple: []value{{expr: ir.StringCode(text), str: text, strKnown: true}, t.fresh("args", results.At(1).Type()), {expr: t.freshVar("err", ir.Bool, ir.KindCall)}}}
		}
	case strings.HasPrefix(a.pkg, "github.com/jackc/pgx") && (a.name == "BeginFunc" || a.name == "BeginTxFunc"):
		return t.beginFunc(f, a, args, results)
	}
	t.callbacks(args, a.pkg+"."+a.name)
	t.escape(args)
	return t.freshResults(a.name+"()", results)
}

// collected returns the results of a pgx Collect* function (CollectOneRow,
// CollectRows, …): the rows' values are not bound to the query's rows, so
// they are arbitrary and marked (ir.Var.Approx): a counterexample reading
// them is UNKNOWN.
func (t *translator) collected(a apiCall, results *types.Tuple) value {
	res := t.freshResults(a.name+"()", results)
	why := fmt.Sprintf("the result of pgx.%s at %s (rows collected by pgx are not modelled)", a.name, t.info(ir.KindCall, "").Position())
	if len(res.tuple) > 0 {
		markValueApprox(res.tuple[0], why)
	} else {
		markValueApprox(res, why)
	}
	return res
}

// beginFunc is pgx.BeginFunc(ctx, db, fn): begin, run fn with the
// transaction, roll back if it fails, else commit.
func (t *translator) beginFunc(f *frame, a apiCall, args []value, results *types.Tuple) value {
	if len(args) < 3 {
		return t.freshResults(a.name+"()", results)
	}
	db, fn := args[1], args[len(args)-1]
	if db.obj != nil && db.obj.kind == objTx {
		t.unsupported("nested transaction (%s on a transaction: a savepoint)", a.name)
		return t.freshResults(a.name+"()", results)
	}
	if fn.obj == nil || (fn.obj.kind != objClosure && fn.obj.kind != objFunc) {
		t.unsupported("%s with a function the analysis cannot resolve", a.name)
		return t.freshResults(a.name+"()", results)
	}
	t.txs++
	id := ir.Tx(t.txs)
	beginErr := t.p.NewVar("err", ir.Bool, ir.Local)
	t.emit(&ir.TxOp{Op: ir.Begin, Tx: id, Err: beginErr, Info: t.info(ir.KindSQL, "BEGIN")})
	out := t.p.NewVar("err", ir.Bool, ir.Local)
	join := t.p.NewLoc()
	from := t.cur
	t.emit(&ir.Assume{Cond: beginErr, Info: t.info(ir.KindBranch, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.emit(&ir.Assume{Cond: ir.Not(beginErr), Info: t.info(ir.KindBranch, "")})
	pos := t.pos
	res := t.callValue(fn, []value{{obj: &object{kind: objTx, tx: id}}})
	t.pos = pos
	fnErr := res.expr
	if fnErr == nil {
		fnErr = t.freshVar("err", ir.Bool, ir.KindCall)
	}
	failed := t.cur
	t.emit(&ir.Assume{Cond: fnErr, Info: t.info(ir.KindBranch, "")})
	rbErr := t.p.NewVar("err", ir.Bool, ir.Local)
	t.emit(&ir.TxOp{Op: ir.Rollback, Tx: id, Err: rbErr, Info: t.info(ir.KindSQL, "ROLLBACK")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "")})
	t.cur = failed
	t.emit(&ir.Assume{Cond: ir.Not(fnErr), Info: t.info(ir.KindBranch, "")})
	commitErr := t.p.NewVar("err", ir.Bool, ir.Local)
	t.emit(&ir.TxOp{Op: ir.Commit, Tx: id, Err: commitErr, Info: t.info(ir.KindSQL, "COMMIT")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{commitErr}, Info: t.info(ir.KindModel, "")})
	t.cur = join
	return value{expr: out}
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
