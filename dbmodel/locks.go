package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// Row locks of locking reads (concurrent models only).
//
// A write to r in an open transaction takes r's lock (txState.wrote). A
// SELECT … FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE in an open
// transaction takes the lock of every row its WHERE matches in the
// committed state it reads, r included where r matches (readLock): a
// locking read of no row locks nothing, as in Postgres. Shared and
// exclusive locks are not told apart (FOR SHARE conflicts with FOR SHARE
// here, an over-approximation of waiting that only removes schedules the
// other order covers). A locking read of autocommit (no transaction)
// releases its locks at once.

// lockWaitAssumption says what the model does with a write that waits
// for a row lock another transaction holds.
func (m *lowerer) lockWaitAssumption() string {
	if m.concurrent() {
		return "a statement that waits for a row lock another request holds runs once that request has committed or rolled back (lock waits are the database's order; a deadlock, where each request waits for the other, is not explored)"
	}
	return "a write that waits for a row lock another transaction of the same run holds is taken to fail (a lock timeout), as it cannot proceed"
}

// readLock returns "T holds r's lock from a locking read" (false outside
// a concurrent model).
func (m *lowerer) readLock(st *txState) ir.Expr {
	if !m.concurrent() || st == nil {
		return ir.False
	}
	if st.readLock == nil {
		st.readLock = m.p.NewVar(fmt.Sprintf("$tx%d.locked_r", st.id), ir.Bool, ir.Ghost)
	}
	return st.readLock
}

// holdsR is "T's open transaction holds r's row lock".
func (m *lowerer) holdsR(st *txState) ir.Expr {
	return ir.And(st.open, ir.Or(st.wrote, m.readLock(st)))
}

// beginLocks releases T's read locks when its transaction begins.
func (m *lowerer) beginLocks(em *emitter, st *txState) {
	if v, ok := m.readLock(st).(*ir.Var); ok {
		em.assign([]*ir.Var{v}, []ir.Expr{ir.False})
	}
}

// lockingRead lowers the locking part of SELECT s … FOR UPDATE on the
// constrained table: it waits while another transaction holds r's lock
// and r (as the handle sees it) matches the WHERE, then an open
// transaction holds r's lock where r matches.
func (m *lowerer) lockingRead(em *emitter, s *ir.Select) {
	if !m.concurrent() || !s.SQL.ForUpdate {
		return
	}
	h := s.Tx
	rv := m.view(em, h)
	matches := ir.And(rv.exists, m.where(s.SQL.Where, rv, s.Args))
	em.havoc(m.takeFresh()...)
	if other := m.lockedByOther(h); other != ir.False {
		em.assume(ir.Not(ir.And(other, matches)))
	}
	st := m.txs[h]
	if h == 0 || st == nil {
		return
	}
	lock := m.readLock(st).(*ir.Var)
	em.assign([]*ir.Var{lock}, []ir.Expr{ir.Or(ir.And(st.open, lock), ir.And(st.open, matches))})
}

// lockSelected records, after SELECT s … FOR UPDATE returned the row x in
// an open transaction, that the transaction holds the lock of the row
// with x's key: r, where r has that key (r is then that row, whatever
// other requests try: the key is taken).
func (m *lowerer) lockSelected(em *emitter, s *ir.Select, x *symbol) {
	if !m.concurrent() || !s.SQL.ForUpdate || s.Tx == 0 || m.txs[s.Tx] == nil {
		return
	}
	same := m.w.sameRow(x, m.w.watched)
	if same == ir.False {
		return
	}
	st := m.txs[s.Tx]
	lock := m.readLock(st).(*ir.Var)
	em.assign([]*ir.Var{lock}, []ir.Expr{ir.Or(lock, ir.And(st.open, same))})
}
