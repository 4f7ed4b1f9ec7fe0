package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// dbCall translates a call of a database/sql function or method.
func (t *translator) dbCall(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, recv, name string, args []value) value {
	results := c.Signature().Results()
	var self *object
	if len(args) > 0 {
		self = args[0].obj
	}
	switch recv {
	case "DB", "Conn", "Tx":
		if m, ok := queryMethods[name]; ok {
			tx := ir.Tx(0)
			if self != nil && self.kind == objTx {
				tx = self.tx
			}
			var query value
			if m.query < len(args) {
				query = args[m.query]
			}
			var params value
			if m.args >= 0 && m.args < len(args) {
				params = args[m.args]
			}
			texts := query.texts()
			if texts == nil {
				if s := t.l.sites[instr]; s != nil && s.Known {
					texts = []string{s.Query}
				}
			}
			sqlArgs := t.sqlArgs(params)
			switch len(texts) {
			case 0:
				return t.runSQL(m.kind, tx, "", false, sqlArgs, results)
			case 1:
				return t.runSQL(m.kind, tx, texts[0], true, sqlArgs, results)
			}
			// One of several constant texts: each is verified on its branch.
			return t.forkTexts(query.expr, texts, func(text string) value {
				return t.runSQL(m.kind, tx, text, true, sqlArgs, results)
			})
		}
		switch name {
		case "Begin", "BeginTx":
			t.txs++
			tx := ir.Tx(t.txs)
			errV := t.p.NewVar("err", ir.Bool, ir.Local)
			t.emit(&ir.TxOp{Op: ir.Begin, Tx: tx, Err: errV, Info: t.info(ir.KindSQL, "BEGIN")})
			return value{tuple: []value{{obj: &object{kind: objTx, tx: tx}}, {expr: errV}}}
		case "Commit", "Rollback":
			errV := t.p.NewVar("err", ir.Bool, ir.Local)
			if self == nil || self.kind != objTx || self.tx == 0 {
				// A transaction begun outside the analysed code: its
				// statements were checked as they ran.
				t.emit(&ir.Havoc{Vars: []*ir.Var{errV}, Info: t.info(ir.KindSQL, "")})
				return value{expr: errV}
			}
			op, text := ir.Commit, "COMMIT"
			if name == "Rollback" {
				op, text = ir.Rollback, "ROLLBACK"
			}
			t.emit(&ir.TxOp{Op: op, Tx: self.tx, Err: errV, Info: t.info(ir.KindSQL, text)})
			return value{expr: errV}
		case "Stmt", "StmtContext":
			st := args[len(args)-1].obj
			if st != nil && st.kind == objStmt && self != nil && self.kind == objTx {
				cp := *st
				cp.tx = self.tx
				return value{obj: &cp}
			}
			return value{obj: st}
		}
	case "Stmt":
		if _, ok := stmtMethods[name]; ok && self != nil && self.alts != nil {
			return t.forAlts(self, func(o *object) value {
				return t.dbCall(f, instr, c, recv, name, append([]value{{obj: o}}, args[1:]...))
			})
		}
		if m, ok := stmtMethods[name]; ok {
			if self == nil || self.kind != objStmt {
				t.unsupported("prepared statement %s whose SQL is not known", name)
				return t.fresh(name+"()", results)
			}
			var params value
			if m.args < len(args) {
				params = args[m.args]
			}
			kind := map[siteKind]siteKind{siteStmtExec: siteExec, siteStmtQuery: siteQuery, siteStmtQueryRow: siteQueryRow}[m.kind]
			return t.runSQL(kind, self.tx, self.text, self.text != "" || self.sql != nil, t.sqlArgs(params), results)
		}
	case "Row", "Rows":
		switch name {
		case "Scan":
			var dests []value
			if len(args) > 1 {
				dests = t.sliceElems(args[1])
			}
			if self != nil && self.alts != nil {
				return t.forAlts(self, func(o *object) value { return t.scan(o, dests, len(args) > 1 && dests == nil) })
			}
			return t.scan(self, dests, len(args) > 1 && dests == nil)
		case "Next":
			return value{expr: t.freshVar("rows.Next()", ir.Bool, ir.KindSQL)}
		case "NextResultSet":
			return value{expr: t.freshVar("rows.NextResultSet()", ir.Bool, ir.KindSQL)}
		}
	}
	// Anything else (Close, Ping, Err, SetMaxOpenConns, sql.Open, …):
	// arbitrary results, no effect on rows.
	return t.fresh(name+"()", results)
}

// sqlArgs returns the values bound to the placeholders, from the variadic
// argument slice (nil entries: unknown).
func (t *translator) sqlArgs(params value) []ir.Expr {
	elems := t.sliceElems(params)
	out := make([]ir.Expr, len(elems))
	for i, e := range elems {
		out[i] = e.expr
	}
	return out
}

// sliceElems returns the elements of a slice built from a known array
// (as the compiler does for variadic arguments), or nil.
func (t *translator) sliceElems(v value) []value {
	if v.obj == nil || v.obj.kind != objSlice || v.obj.cell == nil {
		return nil
	}
	c := v.obj.cell
	out := make([]value, len(c.fields))
	for i := range c.fields {
		fc := t.field(c, i)
		if fc.v != nil {
			out[i] = value{expr: fc.v}
		} else if fc.refSet {
			out[i] = fc.ref
		}
	}
	return out
}

// runSQL translates Exec, Query, QueryRow and Prepare.
func (t *translator) runSQL(kind siteKind, tx ir.Tx, text string, known bool, args []ir.Expr, results *types.Tuple) value {
	if !known {
		t.unsupported("SQL text is not a compile-time constant")
		return t.fresh("sql()", results)
	}
	stmt, err := t.l.parse(text)
	if err != nil {
		t.unsupported("SQL %q: %v", compactSQL(text), err)
		return t.fresh("sql()", results)
	}
	stmt, args = t.bindMarkers(stmt, args)
	info := t.info(ir.KindSQL, compactSQL(text))
	switch kind {
	case siteExec:
		errV := t.p.NewVar("err", ir.Bool, ir.Local)
		aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
		if sel, ok := stmt.(*sqlir.Select); ok {
			t.emit(&ir.Select{SQL: sel, Args: args, Tx: tx, Err: errV, Info: info})
			t.emit(&ir.Havoc{Vars: []*ir.Var{aff}, Info: info})
		} else {
			t.emit(&ir.Exec{SQL: stmt, Args: args, Tx: tx, Err: errV, Affected: aff, Info: info})
		}
		return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
	case siteQuery, siteQueryRow:
		o := &object{kind: objRows, tx: tx, text: text, args: args}
		if kind == siteQueryRow {
			o.kind = objRow
		}
		if sel, ok := stmt.(*sqlir.Select); ok {
			o.sql = sel
		} else if sqlir.IsWrite(stmt) {
			// A write run through Query (with RETURNING): it happens now; a
			// single-row read gets the returned row's values.
			o.execErr = t.p.NewVar("err", ir.Bool, ir.Local)
			items, noRow := returning(stmt)
			for i := range items {
				o.returned = append(o.returned, t.p.NewVar(fmt.Sprintf("returned%d", i), ir.Int, ir.Local))
			}
			o.noRowOK = noRow
			t.emit(&ir.Exec{SQL: stmt, Args: args, Tx: tx, Err: o.execErr, Targets: o.returned, Info: info})
		}
		if kind == siteQueryRow {
			return value{obj: o}
		}
		if o.execErr != nil {
			return value{tuple: []value{{obj: o}, {expr: o.execErr}}}
		}
		errV := t.freshVar("err", ir.Bool, ir.KindSQL)
		return value{tuple: []value{{obj: o}, {expr: errV}}}
	case sitePrepare:
		errV := t.freshVar("err", ir.Bool, ir.KindSQL)
		o := &object{kind: objStmt, tx: tx, text: text, sql: stmt}
		return value{tuple: []value{{obj: o}, {expr: errV}}}
	}
	return t.fresh("sql()", results)
}

// scan translates Row.Scan and Rows.Scan: the SELECT reads one row into
// the destinations.
func (t *translator) scan(src *object, dests []value, unknownDests bool) value {
	errV := t.p.NewVar("err", ir.Bool, ir.Local)
	if unknownDests {
		t.unsupported("Scan destinations passed as a slice the analysis cannot see")
	}
	var targets []*ir.Var
	for _, d := range dests {
		var tv *ir.Var
		if d.obj != nil && d.obj.kind == objPtr && d.obj.cell != nil {
			if d.obj.cell.v != nil {
				tv = d.obj.cell.v
			} else {
				t.havocCell(d.obj.cell, 0)
			}
		}
		targets = append(targets, tv)
	}
	if src == nil || (src.kind != objRow && src.kind != objRows) {
		t.unsupported("Scan of rows whose query is not known")
		t.havocAll(errV, targets)
		return value{expr: errV}
	}
	if src.execErr != nil && src.kind == objRow {
		return t.scanReturned(src, targets, errV)
	}
	sel, ok := src.sql.(*sqlir.Select)
	if !ok {
		// Rows of a write with RETURNING, or of SQL not modelled: arbitrary.
		t.havocAll(errV, targets)
		return value{expr: errV}
	}
	t.emit(&ir.Select{SQL: sel, Args: src.args, Tx: src.tx, Targets: targets, Err: errV, Info: t.info(ir.KindSQL, compactSQL(src.text))})
	return value{expr: errV}
}

func (t *translator) havocAll(errV *ir.Var, targets []*ir.Var) {
	vs := []*ir.Var{errV}
	for _, v := range targets {
		if v != nil {
			vs = append(vs, v)
		}
	}
	t.emit(&ir.Havoc{Vars: vs, Info: t.info(ir.KindSQL, "")})
}

// compactSQL returns query on one line for traces and messages: comment
// lines dropped, runs of white space collapsed.
func compactSQL(query string) string {
	var parts []string
	for _, line := range strings.Split(query, "\n") {
		if i := strings.Index(line, "--"); i >= 0 && !strings.Contains(line[:i], "'") {
			line = line[:i]
		}
		parts = append(parts, strings.Fields(line)...)
	}
	return strings.Join(parts, " ")
}

// returning returns the RETURNING items of a write and whether it may
// return no row.
func returning(stmt sqlir.Statement) ([]sqlir.SelectItem, bool) {
	switch q := stmt.(type) {
	case *sqlir.Update:
		return q.Returning, true
	case *sqlir.Delete:
		return q.Returning, true
	case *sqlir.Insert:
		return q.Returning, q.OnConflictNothing || q.FromSelect
	}
	return nil, true
}

// scanReturned is Row.Scan of a write with RETURNING: it fails if the write
// failed (or returned no row), else the targets get the returned values.
func (t *translator) scanReturned(src *object, targets []*ir.Var, errV *ir.Var) value {
	info := t.info(ir.KindSQL, "")
	failed := ir.Expr(src.execErr)
	if src.noRowOK {
		noRow := t.p.NewVar("noRows", ir.Bool, ir.Local)
		t.emit(&ir.Havoc{Vars: []*ir.Var{noRow}, Info: info})
		failed = ir.Or(failed, noRow)
	}
	t.emit(&ir.Assign{Lhs: []*ir.Var{errV}, Rhs: []ir.Expr{failed}, Info: info})
	var lhs []*ir.Var
	var rhs []ir.Expr
	var unknown []*ir.Var
	for i, tv := range targets {
		if tv == nil {
			continue
		}
		if i < len(src.returned) && tv.Type != ir.Bool {
			lhs = append(lhs, tv)
			rhs = append(rhs, convertSort(src.returned[i], tv.Type))
		} else {
			unknown = append(unknown, tv)
		}
	}
	join := t.p.NewLoc()
	from := t.cur
	t.emit(&ir.Assume{Cond: ir.Not(errV), Info: info})
	if len(unknown) > 0 {
		t.emit(&ir.Havoc{Vars: unknown, Info: info})
	}
	if len(lhs) > 0 {
		t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: info})
	}
	t.edge(join, &ir.Assume{Cond: ir.True, Info: info})
	t.cur = from
	t.edge(join, &ir.Assume{Cond: errV, Info: info})
	return value{expr: errV}
}
