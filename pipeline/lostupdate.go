package pipeline

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The lost-update finding (issue 11 §4): a committed read-modify-write of
// a cell whose final value can differ from both serial orders of two
// requests. The shape: a plain SELECT of a row by its key (no FOR UPDATE
// or FOR SHARE, no lock of the row held by an earlier statement of the
// same transaction), a new value computed in Go from the column read, and
// an UPDATE of the same row by the same key that writes it absolutely
// (SET c = $k, no other condition in its WHERE), at an isolation level
// where the engine lets a second request read the old value and then
// overwrite the first request's write: PostgreSQL READ COMMITTED, MySQL
// (InnoDB) READ COMMITTED and REPEATABLE READ, or any level where the
// read and the write are not in one transaction. PostgreSQL REPEATABLE
// READ and SERIALIZABLE abort the second writer (40001), MySQL
// SERIALIZABLE turns the read into a shared lock (a deadlock, one
// request fails), SQLite runs transactions one at a time: no finding.
//
// The finding is decided per path, over the frontend's program: the path
// is executed symbolically from the entry through the read to the write,
// and a solver query asks for two requests on that path (their own
// inputs, one initial row) whose path conditions hold when both read the
// initial value and when each runs after the other, and whose final
// value when both read first — the second write — differs from the final
// value of both serial orders. Only a satisfiable query is reported, with
// its values ("both read 10 and write 7 and 4; one after the other they
// end at 1"). A relative write (c = c - $1), a write that does not depend
// on the value read, an optimistic check in the WHERE (AND c = $old, a
// version column) or a lock held from the read to the write give no
// finding.

// lostUpdateBudget bounds the symbolic execution of one program: the
// edges executed over all paths, and the solver checks.
const (
	lostUpdateMaxSteps  = 50_000
	lostUpdateMaxChecks = 64
)

// rowAccess is a key-pinned read or write of one row: its table, the
// columns of its WHERE (col = $n, AND-ed) with their placeholders, and
// the columns it reads or writes with their placeholders (a write) or
// scan targets (a read).
type rowAccess struct {
	edge   *ir.Edge
	table  string
	key    map[string]int
	writes map[string]int     // UPDATE: column → placeholder of SET col = $n
	reads  map[string]*ir.Var // SELECT: column → scan target
}

// keyEqualities returns the columns and placeholders of a WHERE that is a
// conjunction of col = $n (false: anything else).
func keyEqualities(where sqlir.Expr, out map[string]int) bool {
	b, ok := where.(*sqlir.Binary)
	if !ok {
		return false
	}
	if b.Op == sqlir.OpAnd {
		return keyEqualities(b.X, out) && keyEqualities(b.Y, out)
	}
	if b.Op != sqlir.OpEq {
		return false
	}
	c, p := b.X, b.Y
	if _, ok := c.(*sqlir.Param); ok {
		c, p = p, c
	}
	col, ok1 := c.(*sqlir.ColRef)
	par, ok2 := p.(*sqlir.Param)
	if !ok1 || !ok2 {
		return false
	}
	name := strings.ToLower(col.Name)
	if _, dup := out[name]; dup {
		return false
	}
	out[name] = par.Index
	return true
}

// plainKeyRead returns the row read of a SELECT edge: a plain (not
// locking) read of one table by key equalities, with the columns it
// scans (nil: not one).
func plainKeyRead(e *ir.Edge) *rowAccess {
	s, ok := e.Stmt.(*ir.Select)
	if !ok || s.LockOnly || s.SQL.ForUpdate || s.SQL.ForShare || s.SQL.Complex || s.SQL.Table == "" || s.SQL.Where == nil {
		return nil
	}
	r := &rowAccess{edge: e, table: strings.ToLower(s.SQL.Table), key: map[string]int{}, reads: map[string]*ir.Var{}}
	if !keyEqualities(s.SQL.Where, r.key) || !argsKnown(s.Args, r.key) {
		return nil
	}
	for i, item := range s.SQL.Columns {
		col, ok := item.Expr.(*sqlir.ColRef)
		if item.Star || !ok || i >= len(s.Targets) || s.Targets[i] == nil {
			continue
		}
		if col.Table != "" && !strings.EqualFold(col.Table, s.SQL.Table) {
			continue
		}
		r.reads[strings.ToLower(col.Name)] = s.Targets[i]
	}
	if len(r.reads) == 0 {
		return nil
	}
	return r
}

// absoluteKeyWrite returns the row write of an UPDATE edge whose WHERE is
// key equalities only and that sets columns to placeholders (nil: not
// one).
func absoluteKeyWrite(e *ir.Edge) *rowAccess {
	x, ok := e.Stmt.(*ir.Exec)
	if !ok {
		return nil
	}
	u, ok := x.SQL.(*sqlir.Update)
	if !ok || u.Where == nil {
		return nil
	}
	w := &rowAccess{edge: e, table: strings.ToLower(u.Table), key: map[string]int{}, writes: map[string]int{}}
	if !keyEqualities(u.Where, w.key) || !argsKnown(x.Args, w.key) {
		return nil
	}
	for _, a := range u.Set {
		p, ok := a.Value.(*sqlir.Param)
		col := strings.ToLower(a.Col)
		if _, isKey := w.key[col]; !ok || isKey || p.Index >= len(x.Args) || x.Args[p.Index] == nil {
			continue
		}
		w.writes[col] = p.Index
	}
	if len(w.writes) == 0 {
		return nil
	}
	return w
}

// argsKnown reports whether the placeholders of key have known values.
func argsKnown(args []ir.Expr, key map[string]int) bool {
	for _, i := range key {
		if i >= len(args) || args[i] == nil {
			return false
		}
	}
	return true
}

// sameKeyColumns reports whether a and b pin rows by the same columns.
func sameKeyColumns(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for c := range a {
		if _, ok := b[c]; !ok {
			return false
		}
	}
	return true
}

// lostUpdateCandidates returns the plain key reads and absolute key
// writes of prog that may form a read-modify-write (a read and a write of
// the same table by the same key columns, the write setting a column the
// read scans).
func lostUpdateCandidates(prog *ir.Program) (map[*ir.Edge]*rowAccess, map[*ir.Edge]*rowAccess) {
	var reads, writes []*rowAccess
	for _, e := range prog.Edges {
		if r := plainKeyRead(e); r != nil {
			reads = append(reads, r)
		} else if w := absoluteKeyWrite(e); w != nil {
			writes = append(writes, w)
		}
	}
	rs, ws := map[*ir.Edge]*rowAccess{}, map[*ir.Edge]*rowAccess{}
	for _, r := range reads {
		for _, w := range writes {
			if pairs(r, w) {
				rs[r.edge], ws[w.edge] = r, w
			}
		}
	}
	return rs, ws
}

// pairs reports whether write w may write back a column read r scans.
func pairs(r, w *rowAccess) bool {
	if r.table != w.table || !sameKeyColumns(r.key, w.key) {
		return false
	}
	for c := range w.writes {
		if r.reads[c] != nil {
			return true
		}
	}
	return false
}

// rowLock is a row lock a transaction holds on a path: on the row of
// table with the key values key, or on rows of table not pinned by key
// (any); gen is the handle's counter of transaction operations when it
// was taken.
type rowLock struct {
	tx    ir.Tx
	gen   int
	at    ir.Info // the statement that took it
	table string
	key   map[string]ir.Expr
	any   bool
}

// pathRead is a candidate read done on the path: the fresh variables of
// the columns it read, its key values, its handle and transaction, and
// the locks the request's transactions held when it ran.
type pathRead struct {
	r     *rowAccess
	vals  map[string]*ir.Var
	err   *ir.Var // the fresh error flag of the read (nil: not observed)
	key   map[string]ir.Expr
	tx    ir.Tx
	gen   int
	begin *ir.TxOp
	locks []rowLock
}

// pathState is the symbolic state of a path: the values of the
// program's variables over the inputs and fresh values, the path
// condition, the transactions open (with their BEGIN), a counter per
// handle of its transaction operations, the row locks held and the
// candidate reads done.
type pathState struct {
	env   map[*ir.Var]ir.Expr
	pc    []ir.Expr
	open  map[ir.Tx]*ir.TxOp
	gen   map[ir.Tx]int
	locks []rowLock
	reads []*pathRead
}

func (st *pathState) clone() *pathState {
	out := &pathState{env: make(map[*ir.Var]ir.Expr, len(st.env)), pc: st.pc[:len(st.pc):len(st.pc)],
		open: map[ir.Tx]*ir.TxOp{}, gen: map[ir.Tx]int{}, locks: st.locks[:len(st.locks):len(st.locks)], reads: st.reads[:len(st.reads):len(st.reads)]}
	for k, v := range st.env {
		out.env[k] = v
	}
	for k, v := range st.open {
		out.open[k] = v
	}
	for k, v := range st.gen {
		out.gen[k] = v
	}
	return out
}

// value is e over the path's fresh values and inputs.
func (st *pathState) value(e ir.Expr) ir.Expr { return ir.Substitute(e, st.env) }

// fresh gives v a new arbitrary value, named after the edge.
func (st *pathState) fresh(v *ir.Var, e *ir.Edge, what string) *ir.Var {
	if v == nil {
		return nil
	}
	f := &ir.Var{Name: fmt.Sprintf("lu.%d.%s.%s", e.ID, what, v.Name), Type: v.Type, Kind: ir.Ghost}
	st.env[v] = f
	return f
}

// keyValues returns the values of a row access's key placeholders.
func (st *pathState) keyValues(key map[string]int, args []ir.Expr) map[string]ir.Expr {
	out := map[string]ir.Expr{}
	for c, i := range key {
		out[c] = st.value(args[i])
	}
	return out
}

// takeLock records that handle tx's transaction (if open) locks the rows
// statement s writes or locks.
func (st *pathState) takeLock(tx ir.Tx, s ir.Stmt) {
	if tx == 0 || st.open[tx] == nil {
		return
	}
	var table string
	var where sqlir.Expr
	var args []ir.Expr
	at := s.Source()
	switch s := s.(type) {
	case *ir.Exec:
		args = s.Args
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			table, where = q.Table, q.Where
		case *sqlir.Delete:
			table, where = q.Table, q.Where
		case *sqlir.Insert:
			table = q.Table
		default:
			return
		}
	case *ir.Select:
		if !s.LockOnly && !s.SQL.ForUpdate && !s.SQL.ForShare {
			return
		}
		args = s.Args
		table, where = s.SQL.Table, s.SQL.Where
		if s.SQL.Complex {
			for _, t := range s.SQL.Tables() {
				st.locks = append(st.locks, rowLock{tx: tx, gen: st.gen[tx], at: at, table: t, any: true})
			}
			return
		}
	}
	l := rowLock{tx: tx, gen: st.gen[tx], at: at, table: strings.ToLower(table)}
	key := map[string]int{}
	if where == nil || !keyEqualities(where, key) || !argsKnown(args, key) {
		l.any = true
	} else {
		l.key = st.keyValues(key, args)
	}
	st.locks = append(st.locks, l)
}

// endTx records a BEGIN, COMMIT or ROLLBACK of handle tx.
func (st *pathState) endTx(op *ir.TxOp) {
	st.gen[op.Tx]++
	delete(st.open, op.Tx)
	var kept []rowLock
	for _, l := range st.locks {
		if l.tx != op.Tx {
			kept = append(kept, l)
		}
	}
	st.locks = kept
	if op.Op == ir.Begin {
		st.open[op.Tx] = op
	}
}

// step executes edge e's statement on st (a copy); false: the path is
// infeasible.
func (st *pathState) step(e *ir.Edge, reads map[*ir.Edge]*rowAccess) bool {
	switch s := e.Stmt.(type) {
	case *ir.Assign:
		vals := make([]ir.Expr, len(s.Rhs))
		for i, r := range s.Rhs {
			vals[i] = st.value(r)
		}
		for i, v := range s.Lhs {
			st.env[v] = vals[i]
		}
	case *ir.Assume:
		c := st.value(s.Cond)
		if b, ok := c.(ir.BoolConst); ok {
			return bool(b)
		}
		st.pc = append(st.pc, c)
	case *ir.Havoc:
		for i, v := range s.Vars {
			st.fresh(v, e, fmt.Sprint("h", i))
		}
	case *ir.Exec:
		st.takeLock(s.Tx, s)
		for i, v := range append([]*ir.Var{s.Err, s.Affected, s.NoRow}, s.Targets...) {
			st.fresh(v, e, fmt.Sprint("x", i))
		}
	case *ir.Select:
		st.selectStep(e, s, reads[e])
	case *ir.TxOp:
		st.endTx(s)
		st.fresh(s.Err, e, "err")
	}
	return true
}

// selectStep executes a SELECT: its targets get fresh values; a
// candidate read is recorded with the locks its transaction holds.
func (st *pathState) selectStep(e *ir.Edge, s *ir.Select, r *rowAccess) {
	var pr *pathRead
	if r != nil {
		pr = &pathRead{r: r, vals: map[string]*ir.Var{}, key: st.keyValues(r.key, s.Args), tx: s.Tx, gen: st.gen[s.Tx], begin: st.open[s.Tx],
			locks: st.locks[:len(st.locks):len(st.locks)]}
	}
	st.takeLock(s.Tx, s)
	for i, v := range s.Targets {
		f := st.fresh(v, e, fmt.Sprint("t", i))
		if pr == nil || f == nil {
			continue
		}
		for c, t := range r.reads {
			if t == v {
				pr.vals[c] = f
			}
		}
	}
	errVar := st.fresh(s.Err, e, "err")
	if pr != nil {
		pr.err = errVar
		st.reads = append(st.reads, pr)
	}
}

// pathWalker executes a program's paths symbolically from the entry to
// target edges (the lost-update finding's writes, the check-then-insert
// finding's INSERTs), recording the candidate reads of each path, and
// calls at on each target it meets, before the target's statement runs.
// done stops the walk (a budget of solver checks); the edges executed are
// bounded by lostUpdateMaxSteps.
type pathWalker struct {
	prog           *ir.Program
	reads, targets map[*ir.Edge]*rowAccess
	reach          []bool
	onPath         []bool
	steps          int
	done           func() bool
	at             func(*pathState, *rowAccess) error
}

func newPathWalker(prog *ir.Program, reads, targets map[*ir.Edge]*rowAccess, done func() bool, at func(*pathState, *rowAccess) error) *pathWalker {
	return &pathWalker{prog: prog, reads: reads, targets: targets, reach: reachesAny(prog, targets), onPath: make([]bool, len(prog.Edges)),
		done: done, at: at}
}

// run walks every path from the entry.
func (f *pathWalker) run() error {
	return f.walk(f.prog.Entry, &pathState{env: map[*ir.Var]ir.Expr{}, open: map[ir.Tx]*ir.TxOp{}, gen: map[ir.Tx]int{}})
}

// walk extends the path ending at l with each edge that leads to a
// target, calling at on each target it meets.
func (f *pathWalker) walk(l ir.Loc, st *pathState) error {
	for _, e := range f.prog.Out[l] {
		w := f.targets[e]
		if f.onPath[e.ID] || (w == nil && !f.reach[e.To]) {
			continue
		}
		if f.steps >= lostUpdateMaxSteps || f.done() {
			return nil
		}
		f.steps++
		if w != nil {
			if err := f.at(st, w); err != nil {
				return err
			}
		}
		if !f.reach[e.To] {
			continue
		}
		next := st.clone()
		if !next.step(e, f.reads) {
			continue
		}
		f.onPath[e.ID] = true
		err := f.walk(e.To, next)
		f.onPath[e.ID] = false
		if err != nil {
			return err
		}
	}
	return nil
}

// reachesAny returns, for each location, whether one of the edges in
// targets is reachable from it.
func reachesAny(prog *ir.Program, targets map[*ir.Edge]*rowAccess) []bool {
	out := make([]bool, prog.NumLocs)
	in := prog.In()
	var work []ir.Loc
	for e := range targets {
		if !out[e.From] {
			out[e.From] = true
			work = append(work, e.From)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range in[l] {
			if !out[e.From] {
				out[e.From] = true
				work = append(work, e.From)
			}
		}
	}
	return out
}

// commitReachable reports whether a COMMIT of handle tx is reachable from
// location l.
func commitReachable(prog *ir.Program, l ir.Loc, tx ir.Tx) bool {
	seen := make([]bool, prog.NumLocs)
	work := []ir.Loc{l}
	seen[l] = true
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range prog.Out[l] {
			if op, ok := e.Stmt.(*ir.TxOp); ok && op.Tx == tx && op.Op == ir.Commit {
				return true
			}
			if !seen[e.To] {
				seen[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	return false
}
