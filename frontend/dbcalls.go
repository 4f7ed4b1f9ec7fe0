package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// dbCall translates a call of a modelled library method or function
// (see package dblib). args are the call's arguments, the receiver first.
// A library's own semantics are its Special handler's; everything else is
// the generic meaning of the call's operation (dbOp), or, for a call the
// library tables do not describe (Close, Ping, Err, sql.Open, …),
// arbitrary results with no effect on rows.
func (t *translator) dbCall(f *frame, instr ssa.CallInstruction, a apiCall, args []value, results *types.Tuple) value {
	var self *object
	if a.Self >= 0 && a.Self < len(args) {
		self = args[a.Self].obj
	}
	kind := a.kind()
	if self != nil && self.alts != nil && (kind == objStmt || kind == objRow || kind == objRows) {
		return t.forAlts(self, func(o *object) value {
			alt := append([]value(nil), args...)
			alt[a.Self] = value{obj: o}
			return t.dbCall(f, instr, a, alt, results)
		})
	}
	if v, ok := t.namedArgCall(instr, a.Pkg, a.Name, args); ok {
		return v
	}
	if a.Special != nil {
		return asValue(a.Special(&libCall{t: t, f: f, instr: instr, a: a, args: args, results: results}, a.Call))
	}
	if v, ok := t.dbOp(f, instr, a, self, args, results); ok {
		return t.foreignErrors(v, results)
	}
	switch kind {
	case objRow, objRows:
		// Reading rows (MapScan, SliceScan, Values, …) changes no row.
		t.escape(args[1:])
	case objNil:
		t.callbacks(args, a.Pkg+"."+a.Name)
		t.escape(args)
		return t.freshResults(a.Name+"()", results)
	}
	return t.fresh(a.Name+"()", results)
}

// dbOp translates the generic meaning of a library operation; false when
// the operation means nothing on the handle it is called on.
func (t *translator) dbOp(f *frame, instr ssa.CallInstruction, a apiCall, self *object, args []value, results *types.Tuple) (value, bool) {
	switch op := a.Op; {
	case op == dblib.Rebind && a.Query >= 0:
		return argAt(args, a.Query), true
	case op == dblib.OpaqueSQL || op == dblib.NotModelled:
		t.unsupported("%s (%s)", a.Name, a.Why)
		return t.fresh(a.Name+"()", results), true
	}
	switch a.kind() {
	case objDB, objTx:
		return t.connOp(f, instr, a, self, args, results)
	case objStmt:
		if !a.Op.RunsText() || a.Op == dblib.Prepare || a.Op.Named() {
			return value{}, false
		}
		if self == nil || self.kind != objStmt {
			t.unsupported("prepared statement %s whose SQL is not known", a.Name)
			return t.fresh(a.Name+"()", results), true
		}
		return t.stmtCall(instr, a, self, func(i int) value { return argAt(args, i) }, results), true
	case objRow, objRows:
		return t.rowsOp(a, self, args)
	case objResult:
		if a.Op != dblib.RowsAffected || self == nil || self.kind != objResult || self.affected == nil {
			return value{}, false
		}
		if results.Len() == 2 {
			errV := t.freshVar("err", ir.Bool, ir.KindCall)
			return value{tuple: []value{{expr: self.affected}, {expr: errV}}}, true
		}
		return value{expr: self.affected}, true
	}
	return value{}, false
}

// connOp translates an operation on a pool, a connection or a transaction.
func (t *translator) connOp(f *frame, instr ssa.CallInstruction, a apiCall, self *object, args []value, results *types.Tuple) (value, bool) {
	switch op := a.Op; {
	case op.RunsText() && a.Query >= 0:
		tx := ir.Tx(0)
		if self != nil && (self.kind == objTx || self.kind == objDB) {
			tx = self.tx // a connection's id, 0 for a pool
		}
		return t.sqlCall(f, instr, a, tx, func(i int) value { return argAt(args, i) }, results), true
	case op == dblib.Begin:
		return t.begin(f, instr, a, self, args, results), true
	case op == dblib.Commit || op == dblib.Rollback:
		return t.endTx(op, self), true
	case op == dblib.BindStmt:
		return t.bindStmt(self, args), true
	case op == dblib.Conn:
		return t.conn(self, results), true
	}
	return value{}, false
}

// rowsOp translates an operation on the rows of a query.
func (t *translator) rowsOp(a apiCall, self *object, args []value) (value, bool) {
	switch a.Op {
	case dblib.Scan:
		var dests []value
		if len(args) > 1 {
			dests = t.sliceElems(args[len(args)-1])
		}
		v := t.scan(self, dests, len(args) > 1 && dests == nil)
		if v.err != nil && v.err.noRows != nil {
			// The library's own "no rows" error.
			v.err.noRowsName = noRowsErrorOf(a.Pkg)
		}
		return v, true
	case dblib.StructScan:
		return t.structScan(self, argAt(args, 1)), true
	case dblib.Next:
		v := t.freshVar("rows.Next()", ir.Bool, ir.KindSQL)
		markNext(self, v)
		return value{expr: v}, true
	case dblib.NextResultSet:
		return value{expr: t.freshVar("rows.NextResultSet()", ir.Bool, ir.KindSQL)}, true
	}
	return value{}, false
}

// begin translates Begin, BeginTx, Beginx, MustBegin, …: a new
// transaction, or UNKNOWN for a savepoint (Begin on a transaction).
func (t *translator) begin(f *frame, instr ssa.CallInstruction, a apiCall, self *object, args []value, results *types.Tuple) value {
	if self != nil && self.kind == objTx {
		t.unsupported("nested transaction (%s on a transaction: a savepoint)", a.Name)
		return t.fresh(a.Name+"()", results)
	}
	id, errV := t.beginTx(t.txOptionsOf(f, instr, a, args))
	// The transaction is nil exactly where Begin failed (every library's
	// Begin returns nil, err): a repository's `if r.tx != nil` on a copy
	// WithTx bound to it reads that, not a new arbitrary value.
	txv := value{obj: &object{kind: objTx, tx: id}, nonNil: ir.Not(errV)}
	if a.Must {
		t.panicIf(errV, "panic: the call failed")
		txv.nonNil = ir.True
		return txv
	}
	return value{tuple: []value{txv, {expr: errV}}}
}

// endTx translates Commit and Rollback.
func (t *translator) endTx(op dblib.Op, self *object) value {
	errV := t.errVar()
	if self == nil || self.kind != objTx || self.tx == 0 {
		// A transaction begun outside the analysed code: its
		// statements were checked as they ran.
		t.emit(&ir.Havoc{Vars: []*ir.Var{errV}, Info: t.info(ir.KindSQL, "")})
		return value{expr: errV}
	}
	irOp, text := ir.Commit, "COMMIT"
	if op == dblib.Rollback {
		irOp, text = ir.Rollback, "ROLLBACK"
	}
	t.emit(&ir.TxOp{Op: irOp, Tx: self.tx, Err: errV, Info: t.info(ir.KindSQL, text)})
	return value{expr: errV}
}

// bindStmt translates tx.Stmt(st) (and sqlx's Stmtx, NamedStmt): the
// prepared statement run inside the transaction.
func (t *translator) bindStmt(self *object, args []value) value {
	st := args[len(args)-1].obj
	if st != nil && st.kind == objStmt && self != nil && self.kind == objTx {
		cp := *st
		cp.tx = self.tx
		return value{obj: &cp}
	}
	return value{obj: st}
}

// conn translates Conn, Connx and Acquire: a connection of the pool (its
// own handle id: BEGIN sent as SQL on it opens a transaction), or a
// transaction's own.
func (t *translator) conn(self *object, results *types.Tuple) value {
	h := value{obj: t.newConn()}
	if self != nil && (self.kind == objTx || self.tx != 0) {
		h = value{obj: self}
	}
	if results.Len() == 2 {
		return value{tuple: []value{h, {expr: t.freshVar("err", ir.Bool, ir.KindSQL)}}}
	}
	return h
}

// sqlCall translates a call that runs SQL text on a connection or
// transaction: Exec, Query, QueryRow, Prepare and sqlx's Get, Select,
// NamedExec, NamedQuery, PrepareNamed.
func (t *translator) sqlCall(f *frame, instr ssa.CallInstruction, a apiCall, tx ir.Tx, arg func(int) value, results *types.Tuple) value {
	if t.l.mixedDialects() && !t.useSiteDialect(instr) {
		return t.freshResults("sql()", results)
	}
	if params := arg(a.Params); params.obj != nil && params.obj.kind == objSlice && params.obj.alts != nil {
		// Arguments built on branches (a φ of known slices): each
		// alternative is run on its branch.
		return t.forAlts(params.obj, func(o *object) value {
			return t.sqlCall(f, instr, a, tx, func(i int) value {
				if i == a.Params {
					return value{obj: o}
				}
				return arg(i)
			}, results)
		})
	}
	query := arg(a.Query)
	texts := query.texts()
	if texts == nil {
		if s := t.l.sites[instr]; s != nil && s.Known {
			texts = []string{s.Query}
		}
	}
	run := func(text string, known bool) value {
		stmtArgs := t.sqlArgs(arg(a.Params))
		t.argUnsigned = unsignedArgs(instr, a.Params, len(stmtArgs))
		t.argFloat = floatArgs(instr, a.Params, len(stmtArgs))
		if p := arg(a.Params); p.obj != nil && p.obj.approxElems != "" && known {
			stmtArgs, t.argNulls, t.argUnsigned, t.argFloat = t.approxArgs(text, p.obj.approxElems), nil, nil, nil
		} else if untrackedArgs(p, stmtArgs) && known {
			// A slice the program built whose elements the model does
			// not follow (appended in a loop, copied): any values, marked.
			stmtArgs, t.argNulls, t.argUnsigned, t.argFloat = t.approxArgs(text, "an element of the argument slice at "+t.posString(t.pos)+", which the model does not track (built in a loop or copied)"), nil, nil, nil
		}
		if named, vals, floats, ok := t.namedArgValue(arg(a.Params), text); ok {
			text, stmtArgs, t.argNulls, t.argUnsigned, t.argFloat = named, vals, nil, nil, floats
		}
		if vals, floats, ok := t.sqlNamedArgs(arg(a.Params), text); ok && known {
			stmtArgs, t.argNulls, t.argUnsigned, t.argFloat = vals, nil, nil, floats
		}
		var names []string
		if a.Op.Named() {
			text, names = dblib.CompileNamed(text, t.dialect == sqlparse.Postgres)
			stmtArgs, t.argFloat = t.namedArgs(arg(a.Named), a.argType(a.Named), names)
			t.argNulls, t.argUnsigned = nil, nil
		}
		return t.runOp(a, tx, text, known, stmtArgs, names, arg, results)
	}
	switch len(texts) {
	case 0:
		return run("", false)
	case 1:
		return run(texts[0], true)
	}
	// One of several constant texts: each is verified on its branch.
	return t.forkTexts(query.expr, texts, func(text string) value { return run(text, true) })
}

// namedArgValue handles a single argument that names the placeholders of
// the text (pgx.NamedArgs{"id": id} with @id): the text with positional
// placeholders, the values bound to them (nil where the argument's
// contents are not known: arbitrary) and which of them are Go floats
// (floatValues).
func (t *translator) namedArgValue(params value, text string) (string, []ir.Expr, map[int]bool, bool) {
	elems := t.sliceElems(params)
	if len(elems) != 1 {
		return "", nil, nil, false
	}
	rewrite, ok := dblib.NamedArgs(elems[0].dyn)
	if !ok {
		return "", nil, nil, false
	}
	out, names, ok := rewrite(text)
	if !ok {
		return "", nil, nil, false
	}
	vals := make([]ir.Expr, len(names))
	bound := make([]value, len(names))
	if o := elems[0].obj; o != nil && o.entries != nil {
		for i, n := range names {
			bound[i] = o.entries[n]
			vals[i] = bound[i].expr
		}
	}
	return out, vals, floatValues(bound), true
}

// useSiteDialect reads the SQL of the site in the dialect of the handle it
// runs on, in a program that opens handles of two dialects; false (and
// UNKNOWN) when that handle cannot be traced to its sql.Open, or when the
// entry already ran SQL of the other dialect.
func (t *translator) useSiteDialect(instr ssa.CallInstruction) bool {
	s := t.l.sites[instr]
	if s == nil || !s.OpenKnown {
		t.unsupported("SQL run on a handle the analysis cannot trace to its sql.Open, in a package that reaches no driver or drivers of two dialects, in a program that uses two dialects (%s): which dialect it is read in is ambiguous (--dialect sets one; or check each service in a run of its own)", t.l.dialectSourcesText())
		return false
	}
	switch {
	case t.dialectOpen == nil:
		o := s.Open
		t.dialectOpen, t.dialect = &o, s.Dialect
		t.p.Dialect = s.Dialect.String()
		if o.imported {
			t.p.Assume(fmt.Sprintf("the SQL of this entry runs on a handle of %s, read as %s", o, s.Dialect))
		} else {
			t.p.Assume(fmt.Sprintf("the SQL of this entry runs on the handle opened by %s, read as %s", o, s.Dialect))
		}
	case t.dialect != s.Dialect:
		t.unsupported("SQL on handles of two dialects in one entry (%s and %s) is not modelled", t.dialectOpen, s.Open)
		return false
	}
	return true
}

// approxArgs returns one arbitrary value per placeholder of text, each
// marked as an approximation (why): the arguments of a slice whose
// elements stand for values the model does not track (sqlx.In's).
func (t *translator) approxArgs(text, why string) []ir.Expr {
	stmt, err := t.parse(text)
	if err != nil {
		return nil // (runSQL reports the text)
	}
	n := 0
	sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if p, ok := e.(*sqlir.Param); ok && p.Index+1 > n {
			n = p.Index + 1
		}
		return nil, false
	})
	out := make([]ir.Expr, n)
	for i := range out {
		v := t.freshVar(fmt.Sprintf("arg%d", i+1), ir.Int, ir.KindSQL)
		v.Approx = why
		out[i] = v
	}
	return out
}

// stmtCall runs a prepared statement (sqlx's NamedStmt binds its :name
// parameters from a struct or map).
func (t *translator) stmtCall(instr ssa.CallInstruction, a apiCall, st *object, arg func(int) value, results *types.Tuple) value {
	if st.text == "" && st.sql == nil {
		t.unsupported("%s on a prepared statement whose SQL is not known here (prepared outside this entry point)", a.Name)
		return t.fresh(a.Name+"()", results)
	}
	stmtArgs := t.sqlArgs(arg(a.Params))
	t.argFloat = floatArgs(instr, a.Params, len(stmtArgs))
	if st.names != nil {
		stmtArgs, t.argFloat = t.namedArgs(arg(a.Named), a.argType(a.Named), st.names)
		t.argNulls, t.argUnsigned = nil, nil
	}
	return t.runOp(a, st.tx, st.text, true, stmtArgs, nil, arg, results)
}

// runOp runs SQL text for a library call's operation: Exec (a Must
// variant panics on failure), Query, QueryRow, Prepare (names: the :name
// parameters of a sqlx named statement), and sqlx's Get and Select, which
// scan into their destination.
func (t *translator) runOp(a apiCall, tx ir.Tx, text string, known bool, args []ir.Expr, names []string, arg func(int) value, results *types.Tuple) value {
	switch a.Op {
	case dblib.Exec, dblib.NamedExec:
		v := t.runSQL(dblib.Exec, tx, text, known, args, results)
		if a.Must {
			return t.mustResult(v)
		}
		return v
	case dblib.Query, dblib.NamedQuery:
		return t.runSQL(dblib.Query, tx, text, known, args, results)
	case dblib.QueryRow:
		return t.runSQL(dblib.QueryRow, tx, text, known, args, results)
	case dblib.Prepare, dblib.PrepareNamed:
		v := t.runSQL(dblib.Prepare, tx, text, known, args, results)
		if names != nil && len(v.tuple) > 0 && v.tuple[0].obj != nil {
			v.tuple[0].obj.names = names
		}
		return v
	case dblib.Get:
		row := t.runSQL(dblib.QueryRow, tx, text, known, args, nil)
		return t.structScan(row.obj, arg(a.Dest))
	case dblib.Select:
		return t.selectInto(t.runSQL(dblib.Query, tx, text, known, args, nil), arg(a.Dest))
	}
	return t.fresh(a.Name+"()", results)
}

// mustResult is a Must variant's result: the call panics when it fails.
func (t *translator) mustResult(v value) value {
	if len(v.tuple) == 2 && v.tuple[1].expr != nil {
		t.panicIf(v.tuple[1].expr, "panic: the call failed")
		return v.tuple[0]
	}
	return v
}

// argAt returns args[i], or the opaque value when there is no such argument.
func argAt(args []value, i int) value {
	if i >= 0 && i < len(args) {
		return args[i]
	}
	return value{}
}

// runSQL translates Exec, Query, QueryRow and Prepare.
func (t *translator) runSQL(kind dblib.Op, tx ir.Tx, text string, known bool, args []ir.Expr, results *types.Tuple) value {
	if !known {
		t.unsupported("SQL text is not a compile-time constant")
		return t.freshResults("sql()", results)
	}
	// An advisory lock is read as the locking read that stands for it
	// (advisory.go), run through Exec only.
	query, lockOnly := text, false
	if lockSQL, ok := advisoryLockSQL(t.dialect, text); ok {
		if kind != dblib.Exec {
			t.unsupported("SQL %q takes an advisory lock through Query or QueryRow (modelled through Exec only)", compactSQL(text))
			return t.freshResults("sql()", results)
		}
		query, lockOnly = lockSQL, true
		query, args = t.exactLockKey(query, args)
		t.lockKeyApprox(args)
	}
	stmt, err := t.parse(query)
	if err != nil {
		if v, ok := t.zeroSpliceFails(kind, tx, text, err); ok {
			return v
		}
		t.unsupported("SQL %q: %v", compactSQL(text), err)
		return t.freshResults("sql()", results)
	}
	if fns := userFunctions(stmt); len(fns) > 0 {
		t.unsupported("SQL %q calls %s, which may read or write any table (functions other than SQL built-ins are not modelled)", compactSQL(text), strings.Join(fns, ", "))
		return t.freshResults("sql()", results)
	}
	if op, ok := untypedArith(stmt, query, len(args)); ok && t.dialect == sqlparse.Postgres {
		return t.untypedStatement(kind, op, t.info(ir.KindSQL, compactSQL(text)), results)
	}
	t.noteEnforcement()
	refused, intParams := t.refuses64(args), t.intParams(query)
	stmt, args = t.bindMarkers(stmt, args)
	stmt, args = t.bindNullArgs(stmt, args)
	stmt = t.bindUnsignedArgs(stmt, args, known)
	t.nanArgs(args, compactSQL(text))
	info := t.info(ir.KindSQL, compactSQL(text))
	if tc, ok := stmt.(*sqlir.TxControl); ok {
		return t.txControl(tc, tx, info, results)
	}
	switch kind {
	case dblib.Exec:
		errV := t.errVar()
		aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
		if sel, ok := stmt.(*sqlir.Select); ok {
			t.emit(&ir.Select{SQL: sel, Args: args, Tx: tx, Err: errV, LockOnly: lockOnly, Refuses64: refused, IntParams: intParams, Info: info})
			t.emit(&ir.Havoc{Vars: []*ir.Var{aff}, Info: info})
		} else {
			t.emitWrite(&ir.Exec{SQL: stmt, Args: args, Tx: tx, Err: errV, Affected: aff, Refuses64: refused, IntParams: intParams, Info: info})
		}
		return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
	case dblib.Query, dblib.QueryRow:
		o := &object{kind: objRows, tx: tx, text: text, args: args, refuses64: refused, intParams: intParams}
		if kind == dblib.QueryRow {
			o.kind = objRow
		}
		if sel, ok := stmt.(*sqlir.Select); ok {
			o.sql = sel
		} else if sqlir.IsWrite(stmt) {
			// A write run through Query (with RETURNING): it happens now; a
			// single-row read gets the returned row's values.
			o.execErr = t.errVar()
			items, noRow := returning(stmt)
			for i := range items {
				o.returned = append(o.returned, t.p.NewVar(fmt.Sprintf("returned%d", i), ir.Int, ir.Local))
			}
			if noRow {
				o.noRow = t.p.NewVar("noRows", ir.Bool, ir.Local)
			}
			t.emitWrite(&ir.Exec{SQL: stmt, Args: args, Tx: tx, Err: o.execErr, Targets: o.returned, NoRow: o.noRow, Refuses64: refused, IntParams: intParams, Info: info})
		}
		if kind == dblib.QueryRow {
			return value{obj: o}
		}
		if o.execErr != nil {
			return value{tuple: []value{{obj: o}, {expr: o.execErr}}}
		}
		if sel, ok := o.sql.(*sqlir.Select); ok && (sel.ForUpdate || sel.ForShare) {
			// The query locks its rows now, whether or not they are read.
			errV := t.errVar()
			if kind == dblib.Query {
				markRowsStart(o, sel, errV)
			}
			t.emit(&ir.Select{SQL: sel, Args: args, Tx: tx, Err: errV, LockOnly: true, Info: info})
			return value{tuple: []value{{obj: o}, {expr: errV}}}
		}
		errV := t.freshVar("err", ir.Bool, ir.KindSQL)
		if sel, ok := o.sql.(*sqlir.Select); ok && kind == dblib.Query {
			markRowsStart(o, sel, errV)
		}
		return value{tuple: []value{{obj: o}, {expr: errV}}}
	case dblib.Prepare:
		errV := t.freshVar("err", ir.Bool, ir.KindSQL)
		o := &object{kind: objStmt, tx: tx, text: text, sql: stmt}
		return value{tuple: []value{{obj: o}, {expr: errV}}}
	}
	return t.freshResults("sql()", results)
}

// scan translates Row.Scan and Rows.Scan: the SELECT reads one row into
// the destinations.
func (t *translator) scan(src *object, dests []value, unknownDests bool) value {
	errV := t.errVar()
	if unknownDests {
		t.unsupported("Scan destinations passed as a slice the analysis cannot see")
	}
	var targets []*ir.Var
	// Destinations the model does not track as one cell: written after
	// the scan (see escape.go).
	var after []func()
	defer func() {
		for _, fn := range after {
			fn()
		}
	}()
	var nulls []nullScan
	var rejects []bool
	var into []*ir.GoDest
	var ranged []ir.Expr // the Go integer destinations hold their type's values
	for _, d := range dests {
		var tv *ir.Var
		reject := false
		var dest *ir.GoDest
		switch {
		case d.obj != nil && d.obj.kind == objPtr && d.obj.cell != nil:
			if d.obj.cell.v != nil {
				tv = d.obj.cell.v
				reject = rejectsNull(d.obj.cell.typ)
				dest = scanDest(d.obj.cell.typ)
				if r, ok := rangeOf(d.obj.cell.typ); ok && tv.Type == ir.Int {
					ranged = append(ranged, r.holds(tv))
				}
			} else if val, valid := t.nullFields(d.obj.cell); val != nil {
				tv = t.p.NewVar(val.v.Name+"#scanned", val.v.Type, ir.Local)
				nulls = append(nulls, nullScan{value: val, valid: valid, tmp: tv, index: len(targets),
					tmpValid: t.p.NewVar(valid.v.Name+"#scanned", ir.Bool, ir.Local)})
			} else if n, ptr, ok := t.pointerScan(d.obj.cell, len(targets)); ok {
				tv = n.tmp
				nulls = append(nulls, n)
				c := d.obj.cell
				after = append(after, func() { t.store(c, ptr) })
			} else {
				t.havocCell(d.obj.cell, 0)
			}
		case isChoicePtr(d) && d.obj.alts[0].cell != nil && d.obj.alts[0].cell.v != nil:
			tv = t.p.NewVar("scan", d.obj.alts[0].cell.v.Type, ir.Local)
			reject = rejectsNull(d.obj.alts[0].cell.typ)
			dest = scanDest(d.obj.alts[0].cell.typ)
			o := d.obj
			after = append(after, func() {
				if !t.storeChoice(o, value{expr: tv}) {
					t.storeUntracked(nil, value{})
				}
			})
		case d.expr == nil && (d.obj == nil || d.obj.kind == objPtr):
			after = append(after, func() { t.storeUntracked(nil, value{}) })
		}
		targets = append(targets, tv)
		rejects = append(rejects, reject)
		into = append(into, dest)
	}
	defer func() { t.storeNullScans(nulls, errV) }()
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
	sel, targets = validItems(sel, targets, nulls)
	var noRow *ir.Var
	if src.kind == objRow {
		noRow = t.p.NewVar("noRows", ir.Bool, ir.Local)
	}
	t.emit(&ir.Select{SQL: sel, Args: src.args, Tx: src.tx, Targets: targets, Err: errV, NoRow: noRow, RejectsNull: rejects,
		ScanInto: into, Refuses64: src.refuses64, IntParams: src.intParams, Info: t.info(ir.KindSQL, compactSQL(src.text))})
	t.copyScanned(src, sel, targets, errV)
	if len(ranged) > 0 {
		// Whatever the column holds, a Go integer variable holds a value
		// of its type (a Scan that cannot convert fails): without a
		// schema the column's value is any integer, and a counterexample
		// scanned 2^64 - 1048577 into an int64 the seeding then refused.
		t.emit(&ir.Assume{Cond: ir.And(ranged...), Info: t.info(ir.KindFact, "")})
	}
	if noRow == nil {
		return value{expr: errV, err: t.foreignErr()}
	}
	return value{expr: errV, err: t.noRowsErr("", noRow)}
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
	if src.noRow != nil {
		// The write says whether it returned a row (dbmodel): none is
		// ErrNoRows.
		failed = ir.Or(failed, src.noRow)
	}
	t.emit(&ir.Assign{Lhs: []*ir.Var{errV}, Rhs: []ir.Expr{failed}, Info: info})
	var lhs []*ir.Var
	var rhs []ir.Expr
	var unknown []*ir.Var
	for i, tv := range targets {
		if tv == nil {
			continue
		}
		// (A returned value is modelled as an integer: a real target may
		// get a fraction, so it is arbitrary.)
		if i < len(src.returned) && tv.Type != ir.Bool && !(tv.Type == ir.Real && src.returned[i].Type == ir.Int) {
			lhs = append(lhs, tv)
			rhs = append(rhs, convertSort(src.returned[i], tv.Type))
			src.returned[i].Str = src.returned[i].Str || tv.Str // scanned into a string: a text column
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

// newConn returns a new connection handle with its own id.
func (t *translator) newConn() *object {
	t.txs++
	id := ir.Tx(t.txs)
	if t.conns == nil {
		t.conns = map[ir.Tx]bool{}
	}
	t.conns[id] = true
	return &object{kind: objDB, tx: id}
}

// txControl translates BEGIN, COMMIT or ROLLBACK sent as SQL text (and SET
// TRANSACTION …, which changes no row). On one
// connection it opens or ends the connection's transaction; on a pool
// (each statement may run on another connection) or inside a transaction
// object it is not modelled.
func (t *translator) txControl(tc *sqlir.TxControl, tx ir.Tx, info ir.Info, results *types.Tuple) value {
	if tc.Kind == sqlir.TxSettings {
		// No row changes, on any handle; the statement may fail.
		t.p.Settings = append(t.p.Settings, ir.Setting{Tx: tx, Info: info})
		errV := t.errVar()
		aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
		t.emit(&ir.Havoc{Vars: []*ir.Var{errV, aff}, Info: info})
		if results == nil || results.Len() != 2 {
			return t.freshResults("sql()", results)
		}
		return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
	}
	if sqlir.IsSavepoint(tc) {
		return t.savepoint(tc, tx, info, results)
	}
	if !t.conns[tx] {
		t.unsupported("%s sent as SQL on a connection pool or a transaction object (each statement may run on another connection)", tc.Kind)
		return t.freshResults("sql()", results)
	}
	op := ir.Begin
	switch tc.Kind {
	case sqlir.TxCommit:
		op = ir.Commit
	case sqlir.TxRollback:
		op = ir.Rollback
	}
	errV := t.errVar()
	t.emit(&ir.TxOp{Op: op, Tx: tx, Err: errV, Conn: true, Info: info})
	aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
	t.emit(&ir.Havoc{Vars: []*ir.Var{aff}, Info: info})
	if results == nil || results.Len() != 2 {
		return t.freshResults("sql()", results)
	}
	return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
}
