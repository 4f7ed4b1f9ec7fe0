package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Savepoints: SAVEPOINT s, RELEASE [SAVEPOINT] s, ROLLBACK TO [SAVEPOINT] s
// sent as SQL on a transaction object or a connection (the frontend
// emits them as an ir.Exec of a sqlir.TxControl, one savepoint name per
// handle).
//
// SAVEPOINT s in an open transaction records r's state (spState.snap)
// and whether the transaction then held r's lock. ROLLBACK TO s gives r
// back that state, forgets the row symbols (they may hold undone
// values) and the keys the transaction inserted (fewer conflicts, never
// more), clears a PostgreSQL abort, and keeps s; RELEASE s forgets s and
// keeps the writes. Outside a transaction each fails (a transaction
// object: sql.ErrTxDone, nothing is sent; PostgreSQL: "can only be used
// in transaction blocks"), except MySQL's SAVEPOINT, which autocommit
// discards at once; RELEASE or ROLLBACK TO of a savepoint that is not
// set fails, and on PostgreSQL that error aborts the transaction.
//
// Row locks taken after the savepoint are released by ROLLBACK TO on
// PostgreSQL (they belong to the subtransaction; its documentation of
// explicit locking says so) and on MariaDB 10.11, although the MySQL
// manual says InnoDB keeps them (but for a row inserted since): another
// session's UPDATE of the row runs at once after the ROLLBACK TO on both
// engines, and waits for a lock taken before the savepoint
// (groundtruth's TestSavepointSemantics). SQLite's database lock stays.
// Releasing is also the side of more behaviours, should a MySQL server
// keep them.
//
// A PostgreSQL error while a savepoint is set aborts only the
// subtransaction: its writes and locks are undone at the error (failed,
// tx.go), the transaction stays open and aborted until ROLLBACK TO
// (which makes it usable again) or its end (COMMIT fails and rolls back).
//
// Savepoint names stack on PostgreSQL and SQLite: SAVEPOINT s while s is
// set hides the older s, which RELEASE s brings back. The model keeps
// the newest one's state; after such a RELEASE (deep) the older one's
// state is not kept (stale): ROLLBACK TO it gives r approximated values,
// so a counterexample through it is not reported as certain. MySQL
// replaces a savepoint of the same name.

// spState is the model's state of handle T's savepoint.
type spState struct {
	name string
	// set: the savepoint exists; deep: an older savepoint of the same
	// name lies under it; stale: the one that exists is an older one,
	// whose state snap does not hold.
	set, deep, stale *ir.Var
	// snap: r's columns and r.$exists at the savepoint (see rVars);
	// wrote: whether T then held r's lock.
	snap  map[*ir.Var]*ir.Var
	wrote *ir.Var
}

// makeSavepoints gives every handle that runs a savepoint statement its
// savepoint state.
func (m *lowerer) makeSavepoints() {
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok || !sqlir.IsSavepoint(s.SQL) {
			continue
		}
		st := m.tx(s.Tx)
		if st.sp != nil {
			continue
		}
		name := fmt.Sprintf("$tx%d.sp", s.Tx)
		sp := &spState{
			name:  s.SQL.(*sqlir.TxControl).Name,
			set:   m.p.NewVar(name+".set", ir.Bool, ir.Ghost),
			deep:  m.p.NewVar(name+".deep", ir.Bool, ir.Ghost),
			stale: m.p.NewVar(name+".stale", ir.Bool, ir.Ghost),
			wrote: m.p.NewVar(name+".wrote_r", ir.Bool, ir.Ghost),
			snap:  map[*ir.Var]*ir.Var{},
		}
		for _, v := range m.rVars() {
			sp.snap[v] = m.p.NewVar(v.Name+name, v.Type, ir.Ghost)
		}
		st.sp = sp
	}
}

// savepointsOnEntry are the initial values of the savepoint flags (none
// is set).
func (m *lowerer) savepointsOnEntry() (lhs []*ir.Var, rhs []ir.Expr) {
	for _, t := range m.txIDs() {
		if sp := m.txs[t].sp; sp != nil {
			lhs = append(lhs, sp.set, sp.deep, sp.stale)
			rhs = append(rhs, ir.False, ir.False, ir.False)
		}
	}
	return lhs, rhs
}

// dropSavepoints returns the assignments that end T's savepoints (at its
// BEGIN, COMMIT and ROLLBACK).
func dropSavepoints(st *txState) (lhs []*ir.Var, rhs []ir.Expr) {
	if st.sp == nil {
		return nil, nil
	}
	return []*ir.Var{st.sp.set, st.sp.deep, st.sp.stale}, []ir.Expr{ir.False, ir.False, ir.False}
}

// stackedSavepoints reports whether SAVEPOINT s hides an older s rather
// than replacing it.
func (m *lowerer) stackedSavepoints() bool { return m.opt.Dialect != "mysql" }

// lowerSavepoint lowers SAVEPOINT, RELEASE or ROLLBACK TO (see above).
func (m *lowerer) lowerSavepoint(e *ir.Edge, s *ir.Exec, tc *sqlir.TxControl) error {
	if m.concurrent() {
		return fmt.Errorf("row model: %s in a concurrent model", tc.Kind)
	}
	st := m.tx(s.Tx)
	sp := st.sp
	em := m.emitter(e.From, s.Info)
	errVar := s.Err
	if errVar == nil {
		errVar = m.p.NewVar("$err", ir.Bool, ir.Ghost)
	}
	em.havoc(errVar)
	if s.Affected != nil {
		em.assign([]*ir.Var{s.Affected}, []ir.Expr{ir.IntLit(0)})
	}
	pg := m.opt.Dialect == "postgres"
	// Outside a transaction: nothing changes; it fails but for MySQL's
	// SAVEPOINT on a connection.
	closed := em.fork(ir.Not(st.open))
	closedFails := st.isTx || tc.Kind != sqlir.TxSavepoint || m.opt.Dialect != "mysql"
	closed.assign([]*ir.Var{errVar}, []ir.Expr{ir.BoolConst(closedFails)})
	closed.jump(e.To)
	if pg && tc.Kind != sqlir.TxRollbackTo {
		// In an aborted transaction only ROLLBACK TO runs.
		ab := em.fork(st.aborted)
		ab.assign([]*ir.Var{errVar}, []ir.Expr{ir.True})
		ab.jump(e.To)
	}
	if tc.Kind != sqlir.TxSavepoint {
		// RELEASE or ROLLBACK TO of a savepoint that is not set fails
		// (on PostgreSQL the error aborts the transaction).
		unset := em.fork(ir.Not(sp.set))
		unset.assign([]*ir.Var{errVar}, []ir.Expr{ir.True})
		m.failed(unset, s.Tx, nil, nil)
		unset.jump(e.To)
	}
	// Any statement may fail (the connection is lost, …).
	fail := em.fork(errVar)
	m.failed(fail, s.Tx, nil, nil)
	fail.jump(e.To)
	switch tc.Kind {
	case sqlir.TxSavepoint:
		m.setSavepoint(em, st)
	case sqlir.TxRelease:
		m.releaseSavepoint(em, sp)
	case sqlir.TxRollbackTo:
		m.rollbackTo(em, st)
		em.assign([]*ir.Var{st.aborted}, []ir.Expr{ir.False})
	}
	em.jump(e.To)
	return nil
}

// setSavepoint records r's state and T's lock of r as the savepoint's.
func (m *lowerer) setSavepoint(em *emitter, st *txState) {
	sp := st.sp
	deep := ir.Expr(ir.False)
	if m.stackedSavepoints() {
		deep = ir.Or(sp.deep, sp.set)
	}
	lhs := []*ir.Var{sp.set, sp.deep, sp.stale, sp.wrote}
	rhs := []ir.Expr{ir.True, deep, ir.False, st.wrote}
	for _, cur := range m.rVars() {
		lhs = append(lhs, sp.snap[cur])
		rhs = append(rhs, cur)
	}
	em.assign(lhs, rhs)
}

// releaseSavepoint forgets the newest savepoint: the older one of the
// same name it hid, if any, is set again, with a state the model did
// not keep (the branch where one may lie under it alone reads the
// approximation).
func (m *lowerer) releaseSavepoint(em *emitter, sp *spState) {
	if m.stackedSavepoints() {
		join := m.p.NewLoc()
		deep := em.fork(sp.deep)
		older := m.approxVar("$older_savepoint", ir.Bool, "whether a savepoint "+sp.name+" older than the one released lies under it")
		deep.havoc(m.takeFresh()...)
		deep.assign([]*ir.Var{sp.stale, sp.deep}, []ir.Expr{ir.True, older})
		deep.jump(join)
		em.assign([]*ir.Var{sp.set}, []ir.Expr{ir.False})
		em.jump(join)
		return
	}
	em.assign([]*ir.Var{sp.set}, []ir.Expr{ir.False})
}

// rollbackTo undoes, where T is open and its savepoint set, T's writes
// since the savepoint: r gets back its state there, the row symbols and
// the keys T inserted are forgotten, and r's lock is held as the engine
// keeps it (see above). The savepoint stays. Where the savepoint is
// stale, r gets approximated values (on a branch of its own, so that
// no other path reads them).
func (m *lowerer) rollbackTo(em *emitter, st *txState) {
	sp := st.sp
	undo := ir.And(st.open, sp.set)
	m.forgetUniqueSites(em, st, undo)
	rv := m.rVars()
	if m.stackedSavepoints() {
		join := m.p.NewLoc()
		lost := em.fork(ir.And(undo, sp.stale))
		var vals []ir.Expr
		for _, cur := range rv {
			vals = append(vals, m.approxVar("$savepoint."+cur.Name, cur.Type, "the state of "+cur.Name+" at an older savepoint "+sp.name+" (a newer one of the same name was released)"))
		}
		lost.havoc(m.takeFresh()...)
		lost.assign(rv, vals)
		lost.jump(join)
		m.restoreR(em, sp, undo)
		em.jump(join)
	} else {
		m.restoreR(em, sp, undo)
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, t := range m.tableList() {
		if t != m.w && !t.slot {
			continue
		}
		for _, x := range t.syms[1:] {
			lhs = append(lhs, x.live)
			rhs = append(rhs, ir.And(x.live, ir.Not(undo)))
		}
	}
	lhs = append(lhs, st.wrote)
	rhs = append(rhs, ir.IteOf(undo, m.lockAfterRollbackTo(st), st.wrote))
	em.assign(lhs, rhs)
}

// restoreR gives r, where undo holds, its state at savepoint sp.
func (m *lowerer) restoreR(em *emitter, sp *spState, undo ir.Expr) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, cur := range m.rVars() {
		lhs = append(lhs, cur)
		rhs = append(rhs, ir.IteOf(undo, sp.snap[cur], cur))
	}
	em.assign(lhs, rhs)
}

// lockAfterRollbackTo is whether T holds r's lock after ROLLBACK TO its
// savepoint: PostgreSQL and MariaDB keep only the locks taken before it;
// SQLite's database lock stays.
func (m *lowerer) lockAfterRollbackTo(st *txState) ir.Expr {
	if m.opt.Dialect == "sqlite" {
		return st.wrote
	}
	return st.sp.wrote
}

// forgetUniqueSites forgets, where when holds, the keys transaction st
// inserted (a ROLLBACK TO may have undone them: fewer conflicts, never
// more).
func (m *lowerer) forgetUniqueSites(em *emitter, st *txState, when ir.Expr) {
	u := m.uniqueSites()
	if u == nil {
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, site := range u.list {
		if site.tx == st.id && site.tx != 0 {
			lhs = append(lhs, site.done)
			rhs = append(rhs, ir.And(site.done, ir.Not(when)))
		}
	}
	em.assign(lhs, rhs)
}

// abortSubtransaction lowers, where aborts holds and T's savepoint is
// set, a PostgreSQL error inside the savepoint: the writes since it are
// undone and its locks released at once, and T stays open and aborted
// (only ROLLBACK TO, ROLLBACK or COMMIT run); the branch joins at join.
// em continues where the savepoint is not set.
func (m *lowerer) abortSubtransaction(em *emitter, st *txState, aborts ir.Expr, join ir.Loc) {
	if st.sp == nil {
		return
	}
	sub := em.fork(ir.And(aborts, st.open, st.sp.set))
	m.rollbackTo(sub, st)
	sub.assign([]*ir.Var{st.aborted}, []ir.Expr{ir.True})
	sub.jump(join)
}
