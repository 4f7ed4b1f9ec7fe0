package pipeline

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The order-dependence finding (issue 11 §4, SARIF DBV007; the
// message-race seed's property): two requests — two entries, or one
// entry with itself on other inputs — that both write a common column of
// a constrained table, such that from the same initial row with the same
// inputs, running A then B and running B then A both succeed (every
// transaction of both commits, no error returned) and end with a
// different value in that cell: SET balance = balance * 2 against SET
// balance = balance + 10, an absolute write against a relative one, a
// SET status = 'shipped' against 'cancelled', both guarded by status =
// 'open' without RowsAffected checked. Two relative additions commute
// and give none.
//
// Each entry's complete paths are executed symbolically (orderPath) over
// a database of one row per constrained table whose columns are the
// initial row's values: a SELECT or UPDATE of the table matches the row
// where its WHERE holds of it, the UPDATE replaces its columns (and
// fails where it breaks a CHECK of the schema), a DELETE removes it;
// BEGIN remembers the rows and ROLLBACK (or a path that ends with its
// transaction open) restores them. Reads and writes of other tables give
// arbitrary values that are the same in both orders (the pair is skipped
// where one request writes a table the other reads or writes). A path
// whose statements on a constrained table the model does not follow (an
// INSERT, SQL with a subquery or function, RETURNING) is left out; a
// loop is taken at most once. An entry's paths are merged into one
// (orderdepcheck.go: merge), and for a pair of entries that both write a
// common column one solver query composes them in both orders (B over
// A's final row, and A over B's) and asks for inputs and an initial row
// under which all four runs succeed, both requests write the cell, and
// it ends differently. The paths and queries are bounded
// (orderDepMaxPaths per entry, orderDepMaxQueries per run): past them,
// the report's warnings say the search was cut.

// orderDepMaxPaths bounds the writing paths kept per entry;
// orderDepMaxQueries the solver checks of a run.
const (
	orderDepMaxPaths   = 24
	orderDepMaxQueries = 600
)

// odRow is the symbolic state of a constrained table's one row: the
// columns written so far (others hold their initial value) and whether
// it still exists.
type odRow struct {
	cols   map[string]ir.Expr
	exists ir.Expr
}

// odColumns are the initial row's column variables, shared by every path
// of a run (so that two paths compose), with the sort of their first use.
type odColumns struct {
	vars map[string]*ir.Var // "table.col"
	// text are the columns compared with or set to a string literal,
	// strs the literals by code (ir.StringCode).
	text map[string]bool
	strs map[string]string
	// checks are the schema's CHECK constraints by table: a write that
	// breaks one fails.
	checks map[string][]sqlir.Expr
}

func newODColumns(schema *sqlir.Schema) *odColumns {
	c := &odColumns{vars: map[string]*ir.Var{}, text: map[string]bool{}, strs: map[string]string{}, checks: map[string][]sqlir.Expr{}}
	if schema != nil {
		for name, t := range schema.Tables {
			for _, k := range t.Checks {
				c.checks[name] = append(c.checks[name], k.Expr)
			}
		}
	}
	return c
}

func (c *odColumns) get(table, col string, sort ir.Sort) *ir.Var {
	k := table + "." + col
	if v := c.vars[k]; v != nil {
		return v
	}
	v := &ir.Var{Name: "od." + k, Type: sort, Kind: ir.Column, Row: "r", Table: table, Col: col}
	c.vars[k] = v
	return v
}

// exists is the variable "table's row exists initially".
func (c *odColumns) exists(table string) *ir.Var {
	k := table + ".$exists"
	if v := c.vars[k]; v != nil {
		return v
	}
	v := &ir.Var{Name: "od." + k, Type: ir.Bool, Kind: ir.Column, Row: "r", Table: table, Col: "$exists"}
	c.vars[k] = v
	return v
}

// isRow reports whether v is an initial row's column.
func (c *odColumns) isRow(v *ir.Var) bool { return c.vars[v.Table+"."+v.Col] == v }

// odWrite is a statement of a path that writes a constrained table's
// column (col "" for a DELETE), the condition under which it wrote, and
// the value it wrote (nil for a DELETE).
type odWrite struct {
	table, col string
	at         ir.Info
	tx         ir.Tx // the open transaction it belongs to (0: it committed at once)
	cond       ir.Expr
	value      ir.Expr
}

// odState is the state of a path being executed.
type odState struct {
	*pathState
	cols    *odColumns
	watched map[string]bool
	dialect string
	rows    map[string]*odRow
	snaps   map[ir.Tx]map[string]*odRow // the rows at each open transaction's BEGIN
	writes  []odWrite
	reads   map[string]bool // other tables read
	written map[string]bool // other tables written
	bad     string          // why the path is not modelled ("": it is)
}

func (st *odState) clone() *odState {
	out := *st
	out.pathState = st.pathState.clone()
	out.rows = copyRows(st.rows)
	out.snaps = map[ir.Tx]map[string]*odRow{}
	for k, v := range st.snaps {
		out.snaps[k] = v
	}
	out.writes = st.writes[:len(st.writes):len(st.writes)]
	out.reads, out.written = copySet(st.reads), copySet(st.written)
	return &out
}

func copyRows(m map[string]*odRow) map[string]*odRow {
	out := make(map[string]*odRow, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// row is the current state of table's row.
func (st *odState) row(table string) *odRow {
	if r := st.rows[table]; r != nil {
		return r
	}
	return &odRow{cols: map[string]ir.Expr{}, exists: st.cols.exists(table)}
}

// column is the current value of table's column col (sort: the sort
// expected where its first use decides it).
func (st *odState) column(table, col string, sort ir.Sort) ir.Expr {
	if v, ok := st.row(table).cols[col]; ok {
		return v
	}
	return st.cols.get(table, col, sort)
}

// fail marks the path as not modelled.
func (st *odState) fail(format string, args ...any) {
	if st.bad == "" {
		st.bad = fmt.Sprintf(format, args...)
	}
}

// sqlValue translates e evaluated on table's row with placeholders args;
// want is the sort expected (where a column's first use decides it).
// False: the model does not follow it.
func (st *odState) sqlValue(e sqlir.Expr, table string, args []ir.Expr, want ir.Sort) (ir.Expr, bool) {
	switch e := e.(type) {
	case *sqlir.ColRef:
		if e.Table != "" && !strings.EqualFold(e.Table, table) {
			return nil, false
		}
		return st.column(table, strings.ToLower(e.Name), want), true
	case *sqlir.Param:
		if e.Index >= len(args) || args[e.Index] == nil {
			return nil, false
		}
		return st.value(args[e.Index]), true
	case *sqlir.Num:
		if e.IsInt && want != ir.Real {
			return ir.BigInt(e.Val.Num()), true
		}
		return ir.RealLit(e.Val), true
	case *sqlir.Str:
		c := ir.StringCode(e.Val)
		st.cols.strs[c.V.String()] = e.Val
		return c, true
	case *sqlir.BoolLit:
		if want == ir.Bool {
			return ir.BoolConst(e.Val), true
		}
		return nil, false
	case *sqlir.Unary:
		switch e.Op {
		case sqlir.OpNot:
			x, ok := st.sqlValue(e.X, table, args, ir.Bool)
			return ir.Not(x), ok && x.Sort() == ir.Bool
		case sqlir.OpNeg:
			x, ok := st.sqlValue(e.X, table, args, want)
			return ir.Neg(x), ok && x.Sort() != ir.Bool
		}
	case *sqlir.Binary:
		return st.sqlBinary(e, table, args, want)
	}
	return nil, false // NULL, IS NULL, CASE, functions, subqueries
}

// sqlBinary translates a binary SQL expression (see sqlValue): AND, OR,
// comparisons, +, -, * and integer division.
func (st *odState) sqlBinary(e *sqlir.Binary, table string, args []ir.Expr, want ir.Sort) (ir.Expr, bool) {
	switch e.Op {
	case sqlir.OpAnd, sqlir.OpOr:
		x, ok1 := st.sqlValue(e.X, table, args, ir.Bool)
		y, ok2 := st.sqlValue(e.Y, table, args, ir.Bool)
		if !ok1 || !ok2 || x.Sort() != ir.Bool || y.Sort() != ir.Bool {
			return nil, false
		}
		if e.Op == sqlir.OpAnd {
			return ir.And(x, y), true
		}
		return ir.Or(x, y), true
	case sqlir.OpEq, sqlir.OpNe, sqlir.OpLt, sqlir.OpLe, sqlir.OpGt, sqlir.OpGe:
		x, y, ok := st.operands(e, table, args, ir.Int)
		if !ok {
			return nil, false
		}
		op := map[sqlir.Op]ir.Op{sqlir.OpEq: ir.OpEq, sqlir.OpNe: ir.OpNe, sqlir.OpLt: ir.OpLt, sqlir.OpLe: ir.OpLe, sqlir.OpGt: ir.OpGt, sqlir.OpGe: ir.OpGe}[e.Op]
		_, xs := e.X.(*sqlir.Str)
		_, ys := e.Y.(*sqlir.Str)
		if (xs || ys || x.Sort() == ir.Bool) && op != ir.OpEq && op != ir.OpNe {
			return nil, false // strings are codes: only equality is kept
		}
		return ir.Cmp(op, x, y), true
	case sqlir.OpAdd, sqlir.OpSub, sqlir.OpMul:
		x, y, ok := st.operands(e, table, args, want)
		if !ok || x.Sort() == ir.Bool {
			return nil, false
		}
		op := map[sqlir.Op]ir.Op{sqlir.OpAdd: ir.OpAdd, sqlir.OpSub: ir.OpSub, sqlir.OpMul: ir.OpMul}[e.Op]
		return ir.Arith(op, x, y), true
	case sqlir.OpDiv, sqlir.OpDivInt:
		return st.sqlDiv(e, table, args, want)
	}
	return nil, false
}

// sqlDiv translates a division of whole numbers: PostgreSQL's and
// SQLite's / and MySQL's DIV truncate toward zero, as ir.OpDiv does
// (MySQL's / gives a decimal: not followed). A zero divisor fails the
// statement: the path, which succeeds, has a non-zero one.
func (st *odState) sqlDiv(e *sqlir.Binary, table string, args []ir.Expr, want ir.Sort) (ir.Expr, bool) {
	if e.Op == sqlir.OpDiv && st.dialect == "mysql" {
		return nil, false
	}
	x, y, ok := st.operands(e, table, args, want)
	if !ok || x.Sort() != ir.Int || y.Sort() != ir.Int {
		return nil, false
	}
	st.pc = append(st.pc, ir.Not(ir.Eq(y, ir.IntLit(0))))
	return ir.Arith(ir.OpDiv, x, y), true
}

// operands translates both sides of e, the side that decides a sort
// first (a column not used before takes the other side's sort), and
// brings a whole number and a real to reals.
func (st *odState) operands(e *sqlir.Binary, table string, args []ir.Expr, want ir.Sort) (ir.Expr, ir.Expr, bool) {
	first, second := e.X, e.Y
	swap := st.untyped(first, table) && !st.untyped(second, table)
	if swap {
		first, second = second, first
	}
	a, ok := st.sqlValue(first, table, args, want)
	if !ok {
		return nil, nil, false
	}
	st.noteText(first, second, table)
	st.noteText(second, first, table)
	b, ok := st.sqlValue(second, table, args, a.Sort())
	if !ok {
		return nil, nil, false
	}
	if swap {
		a, b = b, a
	}
	switch {
	case a.Sort() == b.Sort():
		return a, b, true
	case a.Sort() == ir.Bool || b.Sort() == ir.Bool:
		return nil, nil, false
	}
	return ir.AsReal(a), ir.AsReal(b), true
}

// noteText records that column c (if one of table) holds text when x
// is a string literal.
func (st *odState) noteText(c, x sqlir.Expr, table string) {
	col, ok1 := c.(*sqlir.ColRef)
	_, ok2 := x.(*sqlir.Str)
	if ok1 && ok2 {
		st.cols.text[table+"."+strings.ToLower(col.Name)] = true
	}
}

// untyped reports whether e is a column of table not used before.
func (st *odState) untyped(e sqlir.Expr, table string) bool {
	c, ok := e.(*sqlir.ColRef)
	if !ok {
		return false
	}
	col := strings.ToLower(c.Name)
	_, written := st.row(table).cols[col]
	return !written && st.cols.vars[table+"."+col] == nil
}

// where is the condition under which table's row matches where (nil:
// every row).
func (st *odState) where(where sqlir.Expr, table string, args []ir.Expr) (ir.Expr, bool) {
	r := st.row(table)
	if where == nil {
		return r.exists, true
	}
	c, ok := st.sqlValue(where, table, args, ir.Bool)
	if !ok || c.Sort() != ir.Bool {
		return nil, false
	}
	return ir.And(r.exists, c), true
}

// set assigns v (nil: skip) its value and notes nothing else.
func (st *odState) set(v *ir.Var, e ir.Expr) {
	if v != nil {
		st.env[v] = convertTo(e, v.Type)
	}
}

// convertTo brings e to sort s (an int to a real; a bool to 1/0).
func convertTo(e ir.Expr, s ir.Sort) ir.Expr {
	switch {
	case e.Sort() == s:
		return e
	case s == ir.Real && e.Sort() == ir.Int:
		return ir.AsReal(e)
	case s == ir.Int && e.Sort() == ir.Bool:
		return ir.IteOf(e, ir.IntLit(1), ir.IntLit(0))
	}
	return e
}

// odStep executes edge e on st (a copy); false: the path is infeasible.
func (st *odState) step(e *ir.Edge) bool {
	switch s := e.Stmt.(type) {
	case *ir.Exec:
		if st.touchesWatched(s.SQL.Tables()) {
			st.execWatched(s)
			return true
		}
		st.noteOther(s.SQL.Tables(), true)
	case *ir.Select:
		if st.touchesWatched(s.SQL.Tables()) {
			st.selectWatched(s)
			return true
		}
		st.noteOther(s.SQL.Tables(), false)
	case *ir.TxOp:
		st.txOp(s)
		return true
	case *ir.Havoc:
		for _, v := range s.Vars {
			if v.Kind != ir.Input {
				st.fresh(v, e, "h")
			}
		}
		return true // an input keeps its own name
	}
	return st.pathState.step(e, nil)
}

func (st *odState) touchesWatched(tables []string) bool {
	for _, t := range tables {
		if st.watched[t] {
			return true
		}
	}
	return false
}

func (st *odState) noteOther(tables []string, write bool) {
	for _, t := range tables {
		if write {
			st.written[t] = true
		} else {
			st.reads[t] = true
		}
	}
}

// txOp runs BEGIN, COMMIT or ROLLBACK: one request alone, they succeed.
func (st *odState) txOp(s *ir.TxOp) {
	st.set(s.Err, ir.False)
	switch s.Op {
	case ir.Begin:
		if _, open := st.snaps[s.Tx]; open {
			st.fail("BEGIN at %s of an open transaction", s.Position())
			return
		}
		st.snaps[s.Tx] = copyRows(st.rows)
	case ir.Commit:
		delete(st.snaps, s.Tx)
	case ir.Rollback:
		if snap, open := st.snaps[s.Tx]; open {
			st.rows = copyRows(snap)
			st.dropWrites(s.Tx)
		}
		delete(st.snaps, s.Tx)
	}
}

// dropWrites forgets the writes a rolled-back transaction made.
func (st *odState) dropWrites(tx ir.Tx) {
	var kept []odWrite
	for _, w := range st.writes {
		if w.tx != tx {
			kept = append(kept, w)
		}
	}
	st.writes = kept
}

// selectWatched runs a SELECT of a constrained table: its targets get the
// row's columns where it matches, and its error says whether it did.
func (st *odState) selectWatched(s *ir.Select) {
	q := s.SQL
	table := strings.ToLower(q.Table)
	if q.Complex || q.SkipsRows || table == "" {
		st.fail("SELECT at %s: more than one table, or rows skipped", s.Position())
		return
	}
	found, ok := st.where(q.Where, table, s.Args)
	if !ok {
		st.fail("SELECT at %s: a WHERE the model does not follow", s.Position())
		return
	}
	vals := make([]ir.Expr, len(s.Targets))
	for i, v := range s.Targets {
		if v == nil {
			continue
		}
		if i >= len(q.Columns) || q.Columns[i].Star {
			st.fail("SELECT at %s: a column the model does not follow", s.Position())
			return
		}
		x, ok := st.sqlValue(q.Columns[i].Expr, table, s.Args, v.Type)
		if !ok || (x.Sort() != v.Type && (x.Sort() != ir.Int || v.Type != ir.Real)) {
			st.fail("SELECT at %s: a column the model does not follow", s.Position())
			return
		}
		vals[i] = ir.IteOf(found, convertTo(x, v.Type), st.value(v)) // no row: the Scan leaves it
	}
	for i, v := range s.Targets {
		if v != nil {
			st.set(v, vals[i])
		}
	}
	st.set(s.Err, ir.Not(found))
}

// execWatched runs an UPDATE or DELETE of a constrained table.
func (st *odState) execWatched(s *ir.Exec) {
	if len(s.Targets) > 0 || s.NoRow != nil {
		st.fail("%s: RETURNING", s.Position())
		return
	}
	tx := s.Tx
	if _, open := st.snaps[tx]; !open {
		if len(st.snaps) > 0 {
			st.fail("%s: a statement that commits on its own while a transaction is open", s.Position())
			return
		}
		tx = 0 // commits on its own
	}
	switch q := s.SQL.(type) {
	case *sqlir.Update:
		st.update(s, q, tx)
	case *sqlir.Delete:
		table := strings.ToLower(q.Table)
		match, ok := st.matches("DELETE", q.Where, table, s)
		if !ok {
			return
		}
		r := st.row(table)
		st.rows[table] = &odRow{cols: r.cols, exists: ir.And(r.exists, ir.Not(match))}
		st.writes = append(st.writes, odWrite{table: table, at: s.Info, tx: tx, cond: match})
		st.set(s.Affected, ir.IteOf(match, ir.IntLit(1), ir.IntLit(0)))
		st.set(s.Err, ir.False)
	default:
		st.fail("%s: a statement on a constrained table other than UPDATE or DELETE", s.Position())
	}
}

// matches is the condition under which write s (what: its verb)
// matches table's row; false: the model does not follow its WHERE (the
// path is marked).
func (st *odState) matches(what string, where sqlir.Expr, table string, s *ir.Exec) (ir.Expr, bool) {
	match, ok := st.where(where, table, s.Args)
	if !ok {
		st.fail("%s at %s: a WHERE the model does not follow", what, s.Position())
	}
	return match, ok
}

// update runs UPDATE q, every SET evaluated on the old row (the MySQL
// parser has already rewritten a later assignment that reads an earlier
// one's column: sqlparse/mysql sequentialSet); rows affected are the rows
// matched (MySQL: changed).
func (st *odState) update(s *ir.Exec, q *sqlir.Update, tx ir.Tx) {
	table := strings.ToLower(q.Table)
	match, ok := st.matches("UPDATE", q.Where, table, s)
	if !ok {
		return
	}
	old := st.row(table)
	cur := &odRow{cols: map[string]ir.Expr{}, exists: old.exists}
	for c, v := range old.cols {
		cur.cols[c] = v
	}
	var changed []ir.Expr
	for _, a := range q.Set {
		col := strings.ToLower(a.Col)
		want := ir.Int
		if !st.untyped(&sqlir.ColRef{Name: col}, table) {
			want = st.column(table, col, ir.Int).Sort()
		}
		x, ok := st.sqlValue(a.Value, table, s.Args, want)
		st.noteText(&sqlir.ColRef{Name: col}, a.Value, table)
		if !ok {
			st.fail("UPDATE at %s: SET %s to a value the model does not follow", s.Position(), a.Col)
			return
		}
		prev := st.column(table, col, x.Sort())
		if x.Sort() != prev.Sort() {
			if prev.Sort() == ir.Bool || x.Sort() == ir.Bool {
				st.fail("UPDATE at %s: SET %s: sorts differ", s.Position(), a.Col)
				return
			}
			x, prev = ir.AsReal(x), ir.AsReal(prev)
		}
		cur.cols[col] = ir.IteOf(match, x, prev)
		changed = append(changed, ir.Not(ir.Eq(x, prev)))
		st.writes = append(st.writes, odWrite{table: table, col: col, at: s.Info, tx: tx, cond: match, value: x})
	}
	st.rows[table] = cur
	for _, k := range st.cols.checks[table] {
		c, ok := st.sqlValue(k, table, nil, ir.Bool)
		if !ok || c.Sort() != ir.Bool {
			st.fail("UPDATE at %s: a CHECK of %s the model does not follow", s.Position(), table)
			return
		}
		st.pc = append(st.pc, ir.Implies(match, c)) // else the statement fails
	}
	affected := match
	if st.dialect == "mysql" {
		affected = ir.And(match, ir.Or(changed...))
	}
	st.set(s.Affected, ir.IteOf(affected, ir.IntLit(1), ir.IntLit(0)))
	st.set(s.Err, ir.False)
}

// orderPath is a complete path of an entry that writes a constrained
// table: its condition and success over the inputs, fresh values and the
// initial row; the final rows; its writes; the other tables it reads and
// writes; and its database operations (for a serial replay).
type orderPath struct {
	prog           *ir.Program
	pc             ir.Expr
	rows           map[string]*odRow
	writes         []odWrite
	reads, written map[string]bool
	inputs         []*ir.Var // the entry's inputs the path mentions
	selectors      []*ir.Var // of a merged path: \"path i runs\" (merge)
}

// orderPaths returns the complete paths of prog that write a constrained
// table (at most orderDepMaxPaths; cut says the bound or the step budget
// left some out).
func orderPaths(prog *ir.Program, cols *odColumns, watched map[string]bool, dialect string) ([]*orderPath, bool) {
	w := &odWalker{prog: prog, onPath: make([]bool, len(prog.Edges))}
	st := &odState{pathState: &pathState{env: map[*ir.Var]ir.Expr{}, open: map[ir.Tx]*ir.TxOp{}, gen: map[ir.Tx]int{}},
		cols: cols, watched: watched, dialect: dialect, rows: map[string]*odRow{}, snaps: map[ir.Tx]map[string]*odRow{},
		reads: map[string]bool{}, written: map[string]bool{}}
	w.walk(prog.Entry, st)
	return w.out, w.cut
}

// odWalker enumerates a program's complete paths.
type odWalker struct {
	prog   *ir.Program
	onPath []bool
	steps  int
	out    []*orderPath
	cut    bool
}

func (w *odWalker) walk(l ir.Loc, st *odState) {
	if l == w.prog.Exit {
		w.finish(st)
		return
	}
	for _, e := range w.prog.Out[l] {
		if w.onPath[e.ID] {
			continue
		}
		if w.steps >= lostUpdateMaxSteps || len(w.out) >= orderDepMaxPaths {
			w.cut = true
			return
		}
		w.steps++
		next := st.clone()
		if !next.step(e) || next.bad != "" {
			continue
		}
		w.onPath[e.ID] = true
		w.walk(e.To, next)
		w.onPath[e.ID] = false
	}
}

// finish records a complete path that wrote a constrained table: the
// transactions still open roll back, and success is every error result
// nil.
func (w *odWalker) finish(st *odState) {
	for tx, snap := range st.snaps {
		st.rows = copyRows(snap)
		st.dropWrites(tx)
	}
	if len(st.writes) == 0 {
		return
	}
	conds := append([]ir.Expr(nil), st.pc...)
	for _, v := range w.prog.ErrResults {
		if v != nil {
			conds = append(conds, ir.Not(st.value(v)))
		}
	}
	p := &orderPath{prog: w.prog, pc: ir.And(conds...), rows: st.rows, writes: st.writes, reads: st.reads, written: st.written}
	free := p.freeVars()
	for _, v := range w.prog.Vars {
		if v.Kind == ir.Input && free[v] {
			p.inputs = append(p.inputs, v)
		}
	}
	w.out = append(w.out, p)
}

// freeVars are the variables of the path's condition, final rows and
// writes.
func (p *orderPath) freeVars() map[*ir.Var]bool {
	free := map[*ir.Var]bool{}
	ir.CollectVars(p.pc, free)
	for _, r := range p.rows {
		for _, x := range r.cols {
			ir.CollectVars(x, free)
		}
		ir.CollectVars(r.exists, free)
	}
	for _, w := range p.writes {
		ir.CollectVars(w.cond, free)
	}
	return free
}
