package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// A reference under concurrent requests (--concurrent).
//
// The key slot's watched row s (the referenced row, reference.go) and the
// referencing table's watched row r are two rows with two row locks: a
// transaction's write of s takes s's lock, not r's, and its snapshot of
// s is taken at its first write of s (txState.wroteSlot), so that
// another transaction's reads of s (a COUNT/EXISTS guard) and the
// property's check at its commit see s's committed state, and a rollback
// restores s alone. With one lock for both rows, AddPet's INSERT of a pet
// would wait for DeleteOwner's DELETE of the owner, which PostgreSQL
// does not do without a FOREIGN KEY: the orphan-pet race would be lost
// (a wrong SAFE).
//
// Modelled: PostgreSQL at READ COMMITTED (no first-updater-wins, no
// consistent snapshot, no InnoDB gap locks); reads of s's table see s's committed state (a row read, a
// COUNT/EXISTS guard: count.go); a locking read (FOR SHARE / FOR UPDATE)
// of s's table takes s's lock, one of r's table is not modelled. The
// rest stays UNKNOWN naming the construct (slotConcurrencyLimits).

// slotConcurrencyLimits marks the program UNKNOWN where the concurrent
// model of the reference (see above) does not hold, and otherwise
// records slot as the key slot whose row has its own lock (m.split).
func (m *lowerer) slotConcurrencyLimits(slot *tableModel, text string, at ir.Info) bool {
	c := m.opt.Concurrency
	switch {
	case c.Interference:
		m.p.Unsupport(fmt.Sprintf("the stability proof (other requests' commits between this request's statements) of the reference %s: only the 2-request search models it", text), at)
		return false
	case c.FirstUpdaterWins || c.ConsistentReads:
		m.p.Unsupport(fmt.Sprintf("the reference %s under concurrent requests at REPEATABLE READ or SERIALIZABLE: only READ COMMITTED is modelled", text), at)
		return false
	case c.NextKeyLocks:
		// InnoDB's gap locks make a pet INSERT wait for a DELETE FROM
		// pets that scanned its gap: without them the model has
		// schedules the engine does not run, and its UNSAFE may not be
		// one (with FOR SHARE on the owner and the pets deleted first,
		// the share lock and the gap lock deadlock instead).
		m.p.Unsupport(fmt.Sprintf("the reference %s under concurrent requests on InnoDB at REPEATABLE READ or SERIALIZABLE, whose next-key (gap) locks are not modelled: only READ COMMITTED is", text), at)
		return false
	case m.opt.Dialect != "postgres":
		// InnoDB's READ COMMITTED locks the rows a DELETE scans, an
		// uncommitted insert among them: not checked against MariaDB
		// for a reference.
		m.p.Unsupport(fmt.Sprintf("the reference %s under concurrent requests on %s: only PostgreSQL's locks are modelled for it", text, m.opt.Dialect), at)
		return false
	case slot == m.w:
		m.p.Unsupport(fmt.Sprintf("the reference %s of a table to itself under concurrent requests", text), at)
		return false
	case slot.tracksAny:
		m.p.Unsupport(fmt.Sprintf("the reference %s over a nullable referencing column under concurrent requests (whether %s has a row at all is not kept per transaction)", text, slot.spelled), at)
		return false
	}
	for _, e := range m.src.Edges {
		if why, info := m.slotStmtLimit(e.Stmt, slot); why != "" {
			m.p.Unsupport(fmt.Sprintf("%s: the reference %s is not modelled with it under concurrent requests", why, text), info)
			return false
		}
	}
	m.split = slot
	return true
}

// slotStmtLimit says why statement s is outside the concurrent model of
// a reference ("" if it is not).
func (m *lowerer) slotStmtLimit(s ir.Stmt, slot *tableModel) (string, ir.Info) {
	switch s := s.(type) {
	case *ir.Exec:
		if sqlir.IsSavepoint(s.SQL) {
			return "a savepoint", s.Info
		}
	case *ir.Select:
		if s.LockOnly || s.SQL == nil {
			return "a locking query whose rows are read later", s.Info
		}
		t := m.model(s.SQL.Table)
		if t == m.w && (s.SQL.ForUpdate || s.SQL.ForShare) {
			return "a locking read of " + m.w.spelled, s.Info
		}
		// FOR KEY SHARE blocks a DELETE of the row, which the model's
		// locks do not say (it takes none): the race it prevents would
		// be an UNSAFE that the engine does not run. SKIP LOCKED returns
		// no row where the model waits.
		if t == slot && s.SQL.KeyShare {
			return "FOR KEY SHARE of " + slot.spelled, s.Info
		}
		if t == slot && s.SQL.SkipLocked {
			return "SKIP LOCKED on " + slot.spelled, s.Info
		}
	}
	return "", ir.Info{}
}

// splitSlot reports whether t is the key slot's table whose row has its
// own lock and snapshot (concurrent references).
func (m *lowerer) splitSlot(t *tableModel) bool {
	return m.split != nil && t == m.split
}

// wroteOf is T's "has written the watched row of t (and holds its
// lock)": s's flag for the split key slot, r's otherwise.
func (m *lowerer) wroteOf(st *txState, t *tableModel) *ir.Var {
	if m.splitSlot(t) {
		return st.wroteSlot
	}
	return st.wrote
}

// slotVars returns the split key slot's columns (its table's order) and
// its existence.
func (m *lowerer) slotVars() []*ir.Var {
	s := m.split.watched
	var out []*ir.Var
	for _, c := range m.split.cols {
		out = append(out, s.cols[c])
	}
	return append(out, s.exists)
}

// domainVars returns the variables a write of t snapshots and a rollback
// restores with t's "wrote" flag (wroteOf): with a split key slot, the
// slot's for its table and r's for the others; otherwise every one
// (rVars).
func (m *lowerer) domainVars(t *tableModel) []*ir.Var {
	if m.split == nil {
		return m.rVars()
	}
	if m.splitSlot(t) {
		return m.slotVars()
	}
	n := len(m.w.cols) + 1
	return m.rVars()[:n]
}

// slotHeld is "T's open transaction holds the split key slot's lock (a
// write, or a locking read)"; slotHeldExclusive leaves out the shared
// lock.
func (m *lowerer) slotHeld(st *txState) ir.Expr {
	return ir.And(st.open, ir.Or(st.wroteSlot, st.slotLock, st.slotShare))
}

func (m *lowerer) slotHeldExclusive(st *txState) ir.Expr {
	return ir.And(st.open, ir.Or(st.wroteSlot, st.slotLock))
}

// heldByOther is "another transaction than h holds the lock of t's
// watched row".
func (m *lowerer) heldByOther(h ir.Tx, t *tableModel) ir.Expr {
	if !m.splitSlot(t) {
		return m.lockedByOther(h)
	}
	var alts []ir.Expr
	for _, st := range m.others(h) {
		alts = append(alts, m.slotHeld(st))
	}
	return ir.Or(alts...)
}

// viewOf returns t's watched row as handle h sees the committed state
// (view for r; for the split key slot, the snapshot of the transaction
// that wrote it, if one is open).
func (m *lowerer) viewOf(em *emitter, h ir.Tx, t *tableModel) *symbol {
	if !m.splitSlot(t) {
		return m.view(em, h)
	}
	others := m.others(h)
	s := t.watched
	if len(others) == 0 {
		return s
	}
	v := &symbol{name: "s@committed", table: t.name, cols: map[string]*ir.Var{}, nonNull: s.nonNull}
	val := func(cur *ir.Var) ir.Expr {
		out := ir.Expr(cur)
		for i := len(others) - 1; i >= 0; i-- {
			st := others[i]
			out = ir.IteOf(ir.And(st.open, st.wroteSlot), st.snap[cur], out)
		}
		return out
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, c := range t.cols {
		v.cols[c] = m.p.NewVar(v.name+"."+c, t.sorts[c], ir.Ghost)
		lhs, rhs = append(lhs, v.cols[c]), append(rhs, val(s.cols[c]))
	}
	v.exists = m.p.NewVar(v.name+".$exists", ir.Bool, ir.Ghost)
	lhs, rhs = append(lhs, v.exists), append(rhs, val(s.exists))
	em.assign(lhs, rhs)
	return v
}

// slotLockingRead lowers the lock a SELECT … FOR UPDATE / FOR SHARE of
// the split key slot's table takes: it waits while another transaction
// holds a conflicting lock of s and s (committed) matches the WHERE,
// then an open transaction holds s's lock where s matches. Reports false
// for another read.
func (m *lowerer) slotLockingRead(em *emitter, s *ir.Select) bool {
	t := m.model(s.SQL.Table)
	if !m.splitSlot(t) || !(s.SQL.ForUpdate || s.SQL.ForShare) {
		return false
	}
	h := s.Tx
	sv := m.viewOf(em, h, t)
	matches := ir.And(sv.exists, m.where(s.SQL.Where, sv, s.Args))
	em.havoc(m.takeFresh()...)
	var alts []ir.Expr
	for _, st := range m.others(h) {
		if s.SQL.ForUpdate {
			alts = append(alts, m.slotHeld(st))
		} else {
			alts = append(alts, m.slotHeldExclusive(st))
		}
	}
	if len(alts) > 0 {
		m.assume(m.lockWaitAssumption())
	}
	em.assume(ir.Not(ir.And(ir.Or(alts...), matches)))
	st := m.txs[h]
	if h == 0 || st == nil {
		return true
	}
	lock := st.slotShare
	if s.SQL.ForUpdate {
		lock = st.slotLock
	}
	em.assign([]*ir.Var{lock}, []ir.Expr{ir.Or(ir.And(st.open, lock), ir.And(st.open, matches))})
	return true
}

// slotEnd returns the assignments that clear T's hold of the split key
// slot (at BEGIN, COMMIT, ROLLBACK and on entry); none without one.
func (m *lowerer) slotEnd(st *txState) (lhs []*ir.Var, rhs []ir.Expr) {
	if m.split == nil {
		return nil, nil
	}
	return []*ir.Var{st.wroteSlot, st.slotLock, st.slotShare}, []ir.Expr{ir.False, ir.False, ir.False}
}

// countsTrackedOnly is, for a COUNT/EXISTS of the referencing table of a
// reference under concurrent requests whose WHERE pins no key
// (DeleteOwner's SELECT count(*) FROM pets WHERE owner_id = $1), the
// condition under which its result is exactly whether r (as the read
// sees it) is counted: in the initial databases where no row the model
// does not track matches the WHERE (a choice, "$count_no_other": the
// other databases keep the approximated result), with no untracked write
// of the table the handle sees (visibleDirt) and no row of the table
// read into a symbol (t.syms is r alone: a row read and forgotten may
// still match). A counterexample through it starts from a database with
// no other such row, which its initial rows describe. False otherwise.
func (m *lowerer) countsTrackedOnly(em *emitter, t *tableModel, h ir.Tx) ir.Expr {
	if m.split == nil || t != m.w || len(t.syms) != 1 {
		return ir.False
	}
	none := m.p.NewVar("$count_no_other", ir.Bool, ir.Ghost)
	em.havoc(none)
	return ir.And(none, ir.Not(m.visibleDirt(t, h)))
}
