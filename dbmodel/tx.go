package dbmodel

import (
	"fmt"
	"sort"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Handles and transactions.
//
// Every database operation runs on a handle (ir.Tx): 0 is the pool, whose
// statements commit at once; any other id is a transaction (BeginTx) or a
// connection of the pool (*sql.Conn, where BEGIN/COMMIT/ROLLBACK may be
// sent as SQL text). While a handle's transaction is open its writes are
// pending: other handles see the committed state, and a rollback undoes
// exactly that transaction's writes, not those other handles committed
// meanwhile.
//
// The symbols hold the newest state of their rows (pending writes
// included). For the watched row r, each transaction T keeps whether it
// has written r (T then holds r's row lock) and, from its first write of
// r, r's committed state (snap). A write through another handle to r while
// T holds its lock waits for T (in one goroutine: forever, or until a lock
// timeout): the model lets it fail. A read through another handle sees r's
// committed state; it is not identified with the other symbols while a
// transaction it does not belong to has pending writes (their values may
// be uncommitted).

// txState is the model's state of one transaction (or connection) T.
type txState struct {
	id ir.Tx
	// open: T's transaction has begun and not ended (for a connection
	// outside BEGIN … COMMIT, its statements commit at once).
	open *ir.Var
	// wrote: T has written r (and holds its lock) since it began.
	wrote *ir.Var
	// pending: T has written rows of the constrained table since it began.
	pending *ir.Var
	// snap: r's columns and r.$exists → their committed values, taken
	// before T's first write of r.
	snap map[*ir.Var]*ir.Var
	// dirty: the ghost dirty when T began, or'ed with dirty after each
	// write of another handle since (what a rollback of T restores).
	dirty *ir.Var
	// aborted: a statement of T's open transaction failed on Postgres,
	// which aborts the transaction: its later statements fail, and its
	// COMMIT fails and rolls back.
	aborted *ir.Var
	// isTx: the handle is a transaction object (BeginTx), not a
	// connection: a statement on it after COMMIT or ROLLBACK fails
	// (sql.ErrTxDone), it does not run on its own.
	isTx bool
	// readLock: T holds r's lock from a locking read (concurrent models
	// only, see locks.go; nil until used).
	readLock *ir.Var
	// shareLock: T holds a shared lock of r (FOR SHARE).
	shareLock *ir.Var
	// snapshot: T's snapshot under first-updater-wins (isolation.go; nil
	// until used).
	snapshot *snapState
	// rr: T's consistent-read snapshot (consistent.go; nil until used).
	rr *rrState
	// dl: T's deadlock-victim bookkeeping (deadlock.go; nil until used).
	dl *deadlockState
	// sp: T's savepoint (savepoint.go; nil when T sets none).
	sp *spState
	// wroteSlot, slotLock, slotShare: T has written the split key slot's
	// row s, holds its exclusive lock from a locking read, holds a shared
	// lock of it (refconcurrent.go; nil without a split slot). With a
	// split slot, wrote and snap's r part are r's alone.
	wroteSlot, slotLock, slotShare *ir.Var
}

// makeTxs creates the state of every transaction or connection the
// program uses (every handle but the pool).
func (m *lowerer) makeTxs() {
	for _, e := range m.src.Edges {
		var t ir.Tx
		switch s := e.Stmt.(type) {
		case *ir.TxOp:
			t = s.Tx
		case *ir.Exec:
			t = s.Tx
		case *ir.Select:
			t = s.Tx
		}
		if t != 0 {
			m.tx(t)
		}
		if s, ok := e.Stmt.(*ir.TxOp); ok && s.Op == ir.Begin && !s.Conn {
			m.tx(s.Tx).isTx = true
		}
	}
}

// usable is what a statement on handle h needs to run: a transaction
// object must be open and not aborted; the pool and a connection outside
// a transaction run statements on their own.
func (m *lowerer) usable(h ir.Tx) ir.Expr {
	st := m.txs[h]
	if h == 0 || st == nil {
		return ir.True
	}
	if st.isTx {
		return ir.Or(ir.And(st.open, ir.Not(st.aborted)), m.zombieUsable(st))
	}
	return ir.Not(ir.And(st.open, st.aborted))
}

// failed records that a statement on handle h failed: on Postgres it
// aborts h's open transaction. The failure of a read (noRow not nil) may
// instead be the driver's, after the statement succeeded, which aborts
// nothing: QueryRow's "no rows" (sql.ErrNoRows, pgx.ErrNoRows), where
// noRow holds, or a Scan that cannot convert a value (taken as an abort:
// a program that carries on after one in the same transaction is not
// covered). Taking every failed read as an abort made an
// insert-if-missing after ErrNoRows unreachable: a wrong SAFE.
//
// noRowVar, if not nil, is the read's ir.Select.NoRow: the program tests
// it (errors.Is(err, sql.ErrNoRows)), so it is ErrNoRows only where no
// row matched, and a server error otherwise (adv7 F1: a failed read of
// an existing row taken as "missing, use the defaults", a false UNSAFE).
func (m *lowerer) failed(em *emitter, h ir.Tx, noRow func(*emitter) ir.Expr, noRowVar *ir.Var) {
	st := m.txs[h]
	pgTx := h != 0 && st != nil && m.opt.Dialect == "postgres"
	if noRow != nil && (pgTx || noRowVar != nil) {
		if noRowVar == nil {
			noRowVar = m.p.NewVar("$no_row", ir.Bool, ir.Ghost)
		}
		em.havoc(noRowVar)
		none := noRow(em)
		em.havoc(m.takeFresh()...)
		em.assume(ir.Or(ir.Not(noRowVar), none))
	} else if noRowVar != nil {
		em.havoc(noRowVar)
	}
	if !pgTx {
		return
	}
	var aborts ir.Expr = st.open
	if noRow != nil {
		aborts = ir.And(st.open, ir.Not(noRowVar))
	}
	if !m.abortObservable(m.curFrom, h) {
		// Nothing that may follow can tell when the transaction ended
		// (aborttiming.go): it stays open and aborted to its ROLLBACK.
		em.assign([]*ir.Var{st.aborted}, []ir.Expr{ir.Or(st.aborted, aborts)})
		return
	}
	if st.isTx {
		// The server ends the transaction at the error: its writes are
		// undone and its row locks released there, not at the ROLLBACK
		// the code sends later (a deferred tx.Rollback()); its later
		// statements and its COMMIT fail. Checked on PostgreSQL 15: a
		// FOR UPDATE of the row by another session runs at once after
		// the error. Keeping the locks to the ROLLBACK proved SAFE a
		// fallback debit on the pool after a failed INSERT, with the
		// balance checked under the lock it no longer held
		// (corpus pg_withdraw_ledger_fallback_unsafe).
		join := m.p.NewLoc()
		m.abortSubtransaction(em, st, aborts, join)
		ab := em.fork(aborts)
		m.rollback(ab, st)
		ab.assign([]*ir.Var{st.aborted}, []ir.Expr{ir.True})
		ab.jump(join)
		em.jump(join)
		return
	}
	// A connection whose BEGIN is SQL text: the server aborts its
	// transaction at the error all the same (writes undone, row locks
	// released there), but the connection stays in the aborted
	// transaction block until it sends ROLLBACK or COMMIT: its
	// statements fail meanwhile. Keeping the locks to the ROLLBACK
	// proved SAFE the pool fallback of pg_conn_ledger_fallback_unsafe.
	join := m.p.NewLoc()
	m.abortSubtransaction(em, st, ir.And(aborts, ir.Not(st.aborted)), join)
	ab := em.fork(ir.And(aborts, ir.Not(st.aborted)))
	m.rollback(ab, st)
	m.releaseLocks(ab, st)
	ab.assign([]*ir.Var{st.open, st.aborted}, []ir.Expr{ir.True, ir.True})
	ab.jump(join)
	em.jump(join)
}

// releaseLocks releases the row locks T's locking reads took (its
// writes' locks end with its wrote flag).
func (m *lowerer) releaseLocks(em *emitter, st *txState) {
	var lhs []*ir.Var
	for _, l := range []ir.Expr{m.readLock(st), m.shareLock(st)} {
		if v, ok := l.(*ir.Var); ok {
			lhs = append(lhs, v)
		}
	}
	if len(lhs) > 0 {
		em.assign(lhs, []ir.Expr{ir.False, ir.False}[:len(lhs)])
	}
	m.beginKeyLocks(em, st.id)
}

func (m *lowerer) tx(t ir.Tx) *txState {
	st := m.txs[t]
	if st == nil {
		name := fmt.Sprintf("$tx%d", t)
		st = &txState{
			id:      t,
			open:    m.p.NewVar(name+".open", ir.Bool, ir.Ghost),
			wrote:   m.p.NewVar(name+".wrote_r", ir.Bool, ir.Ghost),
			pending: m.p.NewVar(name+".pending", ir.Bool, ir.Ghost),
			dirty:   m.p.NewVar(name+".dirty", ir.Bool, ir.Ghost),
			aborted: m.p.NewVar(name+".aborted", ir.Bool, ir.Ghost),
			snap:    map[*ir.Var]*ir.Var{},
		}
		for _, v := range m.rVars() {
			st.snap[v] = m.p.NewVar(fmt.Sprintf("%s%s", v.Name, name), v.Type, ir.Ghost)
		}
		if m.split != nil {
			st.wroteSlot = m.p.NewVar(name+".wrote_s", ir.Bool, ir.Ghost)
			st.slotLock = m.p.NewVar(name+".locked_s", ir.Bool, ir.Ghost)
			st.slotShare = m.p.NewVar(name+".shared_s", ir.Bool, ir.Ghost)
		}
		m.txs[t] = st
	}
	return st
}

func (m *lowerer) txIDs() []ir.Tx {
	var ids []ir.Tx
	for t := range m.txs {
		ids = append(ids, t)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// rVars returns r's columns (sorted) and r.$exists, then those of a
// key slot's watched row (reference.go): a transaction's snapshot and
// rollback cover both.
func (m *lowerer) rVars() []*ir.Var {
	var out []*ir.Var
	for _, c := range m.w.cols {
		out = append(out, m.w.watched.cols[c])
	}
	out = append(out, m.w.watched.exists)
	for _, t := range m.tableList() {
		if t.slot && t != m.w {
			for _, c := range t.cols {
				out = append(out, t.watched.cols[c])
			}
			out = append(out, t.watched.exists)
			if t.watched.hasRow != nil {
				out = append(out, t.watched.hasRow)
			}
		}
	}
	return out
}

// others returns the states of the transactions other than handle h that
// may be open where the statement being lowered starts.
func (m *lowerer) others(h ir.Tx) []*txState {
	var out []*txState
	for _, t := range m.txIDs() {
		if t != h && m.curOpen[t] {
			out = append(out, m.txs[t])
		}
	}
	return out
}

// computeMayOpen finds, for every location of the source program, the
// transactions that may be open there (begun on some path and not
// committed or rolled back since).
func (m *lowerer) computeMayOpen() {
	m.mayOpen = make([]map[ir.Tx]bool, m.src.NumLocs)
	m.mayOpen[m.src.Entry] = map[ir.Tx]bool{}
	work := []ir.Loc{m.src.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range m.src.Out[l] {
			out := map[ir.Tx]bool{}
			for t := range m.mayOpen[l] {
				out[t] = true
			}
			if s, ok := e.Stmt.(*ir.TxOp); ok {
				out[s.Tx] = s.Op == ir.Begin
			}
			dst := m.mayOpen[e.To]
			if dst == nil {
				dst = map[ir.Tx]bool{}
				m.mayOpen[e.To] = dst
				work = append(work, e.To)
			}
			for t, open := range out {
				if open && !dst[t] {
					dst[t] = true
					work = append(work, e.To)
				}
			}
		}
	}
}

// lockedByOther is "another transaction than h holds r's lock".
func (m *lowerer) lockedByOther(h ir.Tx) ir.Expr {
	var alts []ir.Expr
	for _, st := range m.others(h) {
		alts = append(alts, m.holdsR(st))
	}
	return ir.Or(alts...)
}

// pendingOther is "another transaction than h has uncommitted writes".
func (m *lowerer) pendingOther(h ir.Tx) ir.Expr {
	var alts []ir.Expr
	for _, st := range m.others(h) {
		alts = append(alts, ir.And(st.open, st.pending))
	}
	return ir.Or(alts...)
}

// visibleDirt is whether the rows of t that handle h sees may have been
// changed by writes the symbols do not track: t's dirty, except that the
// pending writes of another open transaction are not seen. A
// transaction's dirty is the committed state's dirt when it began or'ed
// with every other handle's writes since, so where a transaction other
// than h is open, dirt h sees is also in that transaction's dirty (a
// sound over-approximation with several open). Only the constrained
// table's dirt is kept per transaction; another table's is t's own.
func (m *lowerer) visibleDirt(t *tableModel, h ir.Tx) ir.Expr {
	if t != m.w {
		return t.dirty
	}
	out := []ir.Expr{t.dirty}
	for _, st := range m.others(h) {
		out = append(out, ir.Or(ir.Not(st.open), st.dirty))
	}
	return ir.And(out...)
}

// view returns r as handle h sees it (its committed state, h's own pending
// writes included): where
// another transaction holds r's lock, its snapshot. Without other
// transactions it is r itself; otherwise the values are assigned to ghost
// variables at em.
func (m *lowerer) view(em *emitter, h ir.Tx) *symbol {
	others := m.others(h)
	r := m.w.watched
	if len(others) == 0 {
		return r
	}
	return m.ghostR(em, "r@committed", r.nonNull, func(cur *ir.Var) ir.Expr {
		out := ir.Expr(cur)
		for i := len(others) - 1; i >= 0; i-- {
			st := others[i]
			out = ir.IteOf(ir.And(st.open, st.wrote), st.snap[cur], out)
		}
		return out
	})
}

// ghostR assigns at em, to ghost columns name.c and name.$exists, the
// value val gives for each of r's columns and r.$exists, and returns them
// as a row symbol (a view of r).
func (m *lowerer) ghostR(em *emitter, name string, nonNull map[string]bool, val func(*ir.Var) ir.Expr) *symbol {
	r := m.w.watched
	v := &symbol{name: name, table: m.w.name, cols: map[string]*ir.Var{}, nonNull: nonNull}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, c := range m.w.cols {
		nv := m.p.NewVar(name+"."+c, m.w.sorts[c], ir.Ghost)
		v.cols[c] = nv
		lhs = append(lhs, nv)
		rhs = append(rhs, val(r.cols[c]))
	}
	v.exists = m.p.NewVar(name+".$exists", ir.Bool, ir.Ghost)
	lhs = append(lhs, v.exists)
	rhs = append(rhs, val(r.exists))
	em.assign(lhs, rhs)
	return v
}

// beginWrite prepares a write of handle h to table t: h's snapshot of
// r (of the split key slot's row for its table) is taken unless h
// already holds it. It returns the variable "this write changes r",
// false until touchR.
func (m *lowerer) beginWrite(em *emitter, h ir.Tx, t *tableModel) *ir.Var {
	flag := m.p.NewVar("$writes_r", ir.Bool, ir.Ghost)
	lhs := []*ir.Var{flag}
	rhs := []ir.Expr{ir.False}
	if st := m.txs[h]; st != nil && h != 0 {
		wrote := m.wroteOf(st, t)
		for _, cur := range m.domainVars(t) {
			lhs = append(lhs, st.snap[cur])
			rhs = append(rhs, ir.IteOf(wrote, st.snap[cur], cur))
		}
	}
	em.assign(lhs, rhs)
	return flag
}

// touchR records, before a write of handle h, that it changes r when
// changes holds (in the state before the write), and that the write
// fails where conflict holds (see lockConflict).
func (m *lowerer) touchR(em *emitter, h ir.Tx, flag *ir.Var, changes, conflict ir.Expr) {
	em.assign([]*ir.Var{flag}, []ir.Expr{ir.Or(flag, changes)})
	em.assume(ir.Not(conflict))
}

// lockConflict returns, for a write of handle h whose WHERE is where (nil:
// every row), whether r is locked by another transaction and where
// matches r's committed state (the write then waits for the lock: the
// model lets it fail), and whether r is locked at all (the write then
// leaves r alone). The view's values are assigned at em.
func (m *lowerer) lockConflict(em *emitter, h ir.Tx, t *tableModel, where sqlir.Expr, args []ir.Expr) (conflict, locked ir.Expr) {
	locked = m.heldByOther(h, t)
	if locked == ir.False {
		return ir.False, ir.False
	}
	m.assume(m.lockWaitAssumption())
	rv := m.viewOf(em, h, t)
	return ir.And(locked, rv.exists, m.where(where, rv, args)), locked
}

// endWrite ends a write of handle h to the constrained table (flag: it
// changed r): a transaction records its pending writes; the writes of the
// pool, or of a connection outside a transaction, are committed and
// checked now. The rollback state of every other transaction keeps the
// dirt this write may have made.
func (m *lowerer) endWrite(em *emitter, h ir.Tx, t *tableModel, flag *ir.Var) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, st := range m.others(h) {
		lhs = append(lhs, st.dirty)
		rhs = append(rhs, ir.Or(st.dirty, m.w.dirty))
	}
	st := m.txs[h]
	if h != 0 && st != nil {
		wrote := m.wroteOf(st, t)
		lhs = append(lhs, wrote, st.pending)
		rhs = append(rhs, ir.Or(wrote, ir.And(st.open, flag)), ir.Or(st.pending, st.open))
	}
	em.assign(lhs, rhs)
	if h == 0 || st == nil {
		m.changedR(em, h, flag)
		m.check(em, ir.True, h)
		return
	}
	m.changedR(em, h, ir.And(ir.Not(st.open), flag))
	m.check(em, ir.Not(st.open), h)
}

func (m *lowerer) lowerTx(e *ir.Edge, s *ir.TxOp) {
	st := m.tx(s.Tx)
	em := m.emitter(e.From, s.Info)
	errVar := s.Err
	if errVar == nil {
		errVar = m.p.NewVar("$err", ir.Bool, ir.Ghost)
	}
	em.havoc(errVar)
	m.endZombie(em, st)
	switch s.Op {
	case ir.Begin:
		fail := em.fork(errVar)
		fail.jump(e.To)
		if s.Conn {
			// BEGIN inside a transaction (SQL text on a connection):
			// MySQL commits the open one; Postgres keeps it (its writes
			// are checked here all the same: an over-approximation).
			m.commit(em, st)
		}
		lhs, rhs := m.releaseHeld(st)
		sl, sr := dropSavepoints(st)
		lhs, rhs = append(lhs, sl...), append(rhs, sr...)
		sl, sr = m.slotEnd(st)
		lhs, rhs = append(lhs, sl...), append(rhs, sr...)
		em.assign(append(lhs, st.open, st.wrote, st.pending, st.dirty, st.aborted),
			append(rhs, ir.True, ir.False, ir.False, m.w.dirty, ir.False))
		m.beginLocks(em, st)
		em.jump(e.To)
	case ir.Commit:
		// Committing a finished transaction fails (sql.ErrTxDone), or is
		// a no-op (COMMIT as SQL text outside a transaction).
		// That of a transaction the server aborted at an error fails.
		aborted := em.fork(ir.And(ir.Not(st.open), st.aborted))
		aborted.assign([]*ir.Var{errVar}, []ir.Expr{ir.True})
		aborted.jump(e.To)
		done := em.fork(ir.Not(st.open))
		done.jump(e.To)
		if !st.isTx {
			// COMMIT sent as SQL in an aborted transaction block ends it
			// as a ROLLBACK: PostgreSQL answers with the ROLLBACK tag,
			// which database/sql and pgx's Exec return without an error.
			ab := em.fork(st.aborted)
			m.rollback(ab, st)
			ab.jump(e.To)
		}
		fail := em.fork(errVar)
		m.rollback(fail, st)
		fail.jump(e.To)
		// An aborted transaction's COMMIT fails (and rolls back).
		em.assume(ir.Not(st.aborted))
		m.commit(em, st)
		em.jump(e.To)
	case ir.Rollback:
		m.rollback(em, st)
		em.jump(e.To)
	}
}

// commit commits T if it is open: its writes become the committed state,
// which is checked.
func (m *lowerer) commit(em *emitter, st *txState) {
	m.changedR(em, st.id, ir.And(st.open, st.wrote))
	wasOpen := m.p.NewVar(fmt.Sprintf("$tx%d.committing", st.id), ir.Bool, ir.Ghost)
	lhs, rhs := m.releaseHeld(st)
	sl, sr := dropSavepoints(st)
	lhs, rhs = append(lhs, sl...), append(rhs, sr...)
	sl, sr = m.slotEnd(st)
	lhs, rhs = append(lhs, sl...), append(rhs, sr...)
	em.assign(append(lhs, wasOpen, st.open, st.wrote, st.pending),
		append(rhs, st.open, ir.False, ir.False, ir.False))
	m.check(em, wasOpen, st.id)
}

// rollback undoes T's writes if it is open, and closes it: r gets back its
// committed state if T wrote it; the symbols are forgotten (they may hold
// undone values).
func (m *lowerer) rollback(em *emitter, st *txState) {
	m.rollbackUniqueSites(em, st)
	var lhs []*ir.Var
	var rhs []ir.Expr
	undo := ir.And(st.open, st.wrote)
	for _, cur := range m.domainVars(m.w) {
		lhs = append(lhs, cur)
		rhs = append(rhs, ir.IteOf(undo, st.snap[cur], cur))
	}
	if m.split != nil {
		undoS := ir.And(st.open, st.wroteSlot)
		for _, cur := range m.slotVars() {
			lhs = append(lhs, cur)
			rhs = append(rhs, ir.IteOf(undoS, st.snap[cur], cur))
		}
	}
	lhs = append(lhs, m.w.dirty)
	rhs = append(rhs, ir.IteOf(st.open, st.dirty, m.w.dirty))
	for _, t := range m.tableList() {
		if t != m.w && !t.slot {
			continue
		}
		for _, x := range t.syms[1:] {
			lhs = append(lhs, x.live)
			rhs = append(rhs, ir.And(x.live, ir.Not(st.open)))
		}
	}
	hl, hr := m.releaseHeld(st)
	sl, sr := dropSavepoints(st)
	hl, hr = append(hl, sl...), append(hr, sr...)
	sl, sr = m.slotEnd(st)
	hl, hr = append(hl, sl...), append(hr, sr...)
	lhs = append(append(lhs, hl...), st.open, st.wrote, st.pending)
	rhs = append(append(rhs, hr...), ir.False, ir.False, ir.False)
	em.assign(lhs, rhs)
}

// check branches to the error location if, where when holds, the
// committed state (handle h's writes included) breaks the property: for
// a row check, r exists and breaks ψ.
func (m *lowerer) check(em *emitter, when ir.Expr, h ir.Tx) {
	if when == ir.False {
		return
	}
	rows := m.committedRows(em, h)
	m.fresh = nil
	bad := ir.And(append([]ir.Expr{when}, m.ins.Violation(rows)...)...)
	em.havoc(m.takeFresh()...)
	info := em.info
	info.Kind = ir.KindModel
	info.Text = "check " + m.ins.Text()
	m.p.AddEdge(em.cur, m.p.Error, &ir.Assume{Cond: bad, Info: info})
	n := m.p.NewLoc()
	m.p.AddEdge(em.cur, n, &ir.Assume{Cond: ir.Not(bad), Info: info})
	em.cur = n
}
