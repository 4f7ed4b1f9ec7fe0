package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// Row locks of the watched row r (concurrent models only).
//
// A write to r in an open transaction takes r's exclusive lock
// (txState.wrote). A SELECT … FOR UPDATE / FOR NO KEY UPDATE in an open
// transaction takes the exclusive lock of every row its WHERE matches in
// the committed state it reads, r included where r matches (readLock);
// FOR SHARE takes a shared lock (shareLock). A locking read of no row
// locks nothing, as in Postgres. A write or an exclusive locking read
// waits for every lock another transaction holds on r, a shared locking
// read only for an exclusive one. A locking read of autocommit (no
// transaction) releases its locks at once. FOR KEY SHARE takes no lock
// here (the parser sets neither flag): it does not block an UPDATE of a
// non-key column, and a conflict the engine does not have would remove
// schedules it runs (a wrong SAFE); the conflicts it does have (with a
// DELETE or a key change) are left out, which only adds schedules.

// lockWaitAssumption says what the model does with a write that waits
// for a row lock another transaction holds.
func (m *lowerer) lockWaitAssumption() string {
	if m.concurrent() {
		return "a statement that waits for a row lock another request holds runs once that request has committed or rolled back (lock waits are the database's order); where each request waits for a lock the other holds by key, the engine fails either waiting statement (a deadlock victim) and the other goes on"
	}
	return "a write that waits for a row lock another transaction of the same run holds is taken to fail (a lock timeout), as it cannot proceed"
}

// readLock returns "T holds r's exclusive lock from a locking read"
// (false outside a concurrent model).
func (m *lowerer) readLock(st *txState) ir.Expr {
	if !m.concurrent() || st == nil {
		return ir.False
	}
	if st.readLock == nil {
		st.readLock = m.p.NewVar(fmt.Sprintf("$tx%d.locked_r", st.id), ir.Bool, ir.Ghost)
	}
	return st.readLock
}

// shareLock returns "T holds a shared lock of r" (false outside a
// concurrent model).
func (m *lowerer) shareLock(st *txState) ir.Expr {
	if !m.concurrent() || st == nil {
		return ir.False
	}
	if st.shareLock == nil {
		st.shareLock = m.p.NewVar(fmt.Sprintf("$tx%d.shared_r", st.id), ir.Bool, ir.Ghost)
	}
	return st.shareLock
}

// holdsR is "T's open transaction holds a lock of r" (any mode: no other
// transaction writes r meanwhile).
func (m *lowerer) holdsR(st *txState) ir.Expr {
	return ir.And(st.open, ir.Or(st.wrote, m.readLock(st), m.shareLock(st)))
}

// holdsRExclusive is "T's open transaction holds r's exclusive lock".
func (m *lowerer) holdsRExclusive(st *txState) ir.Expr {
	return ir.And(st.open, ir.Or(st.wrote, m.readLock(st)))
}

// beginLocks releases T's read locks when its transaction begins.
func (m *lowerer) beginLocks(em *emitter, st *txState) {
	m.releaseLocks(em, st)
	m.beginSnapshot(em, st)
	m.beginConsistent(em, st)
}

// lockingRead lowers the locking part of SELECT s … FOR UPDATE (or FOR
// SHARE) on the constrained table: it waits while another transaction
// holds a conflicting lock of r and r (as the handle sees it) matches the
// WHERE, then an open transaction holds r's lock where r matches.
func (m *lowerer) lockingRead(em *emitter, s *ir.Select) {
	if !m.concurrent() || !(s.SQL.ForUpdate || s.SQL.ForShare) || m.slotLockingRead(em, s) {
		return
	}
	h := s.Tx
	rv := m.view(em, h)
	matches := ir.And(rv.exists, m.where(s.SQL.Where, rv, s.Args))
	em.havoc(m.takeFresh()...)
	other := m.lockedByOther(h)
	if !s.SQL.ForUpdate {
		other = m.lockedExclusiveByOther(h)
	}
	if c := m.serialConflict(h, matches, ir.And(other, matches)); c != ir.False {
		em.assume(ir.Not(c))
	}
	st := m.txs[h]
	if h == 0 || st == nil {
		return
	}
	lock := m.lockVar(st, s.SQL.ForUpdate)
	em.assign([]*ir.Var{lock}, []ir.Expr{ir.Or(ir.And(st.open, lock), ir.And(st.open, matches))})
}

// lockVar is T's lock variable of r for an exclusive or shared locking
// read.
func (m *lowerer) lockVar(st *txState, exclusive bool) *ir.Var {
	if exclusive {
		return m.readLock(st).(*ir.Var)
	}
	return m.shareLock(st).(*ir.Var)
}

// lockedExclusiveByOther is "another transaction than h holds r's
// exclusive lock".
func (m *lowerer) lockedExclusiveByOther(h ir.Tx) ir.Expr {
	var alts []ir.Expr
	for _, st := range m.others(h) {
		alts = append(alts, m.holdsRExclusive(st))
	}
	return ir.Or(alts...)
}

// lockSelected records, after a locking SELECT s returned the row x in
// an open transaction, that the transaction holds the lock of the row
// with x's key: r, where r has that key (r is then that row, whatever
// other requests try: the key is taken).
func (m *lowerer) lockSelected(em *emitter, s *ir.Select, x *symbol) {
	if !m.concurrent() || !(s.SQL.ForUpdate || s.SQL.ForShare) || s.Tx == 0 || m.txs[s.Tx] == nil || m.splitSlot(m.model(x.table)) {
		return
	}
	same := m.w.sameRow(x, m.w.watched)
	if same == ir.False {
		return
	}
	st := m.txs[s.Tx]
	lock := m.lockVar(st, s.SQL.ForUpdate)
	em.assign([]*ir.Var{lock}, []ir.Expr{ir.Or(lock, ir.And(st.open, same))})
}

// lowerLockOnly lowers the execution of a locking query whose rows are
// read later (ir.Select.LockOnly): in a concurrent model it may fail, and
// it waits for and takes r's lock where r matches; in a sequential one
// only its error is arbitrary.
func (m *lowerer) lowerLockOnly(e *ir.Edge, s *ir.Select) {
	if !m.concurrent() {
		em := m.emitter(e.From, s.Info)
		if s.Err != nil {
			em.havoc(s.Err)
		}
		em.jump(e.To)
		return
	}
	em := m.errFork(e, s.Info, s.Err, nil, nil)
	if m.model(s.SQL.Table) == m.w && !s.SQL.Complex {
		m.lockingRead(em, s)
	}
	em.jump(e.To)
}
