package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// InnoDB consistent reads (MySQL REPEATABLE READ; Concurrency.ConsistentReads).
//
// A transaction T takes its snapshot at its first plain (non-locking)
// read of any table: the committed state then, with T's own writes. Its
// later plain reads read that snapshot, not the newest committed state —
// except the rows T has written itself, which it reads as they are now
// (T holds their locks: nobody else changed them since). Locking reads
// and writes read the newest version as under READ COMMITTED. So a plain
// balance read after SELECT … FOR UPDATE of the same row may be older than
// the locked row (corpus concurrent/mysql_snapshot_before_lock_unsafe).
//
// The watched row r is read exactly: T keeps r's committed state at its
// snapshot (rrState). Another row of the constrained table read plainly
// after the snapshot was taken may be older than the symbols hold: its
// values are an approximation (untrackedRead), so no counterexample rests
// on them.

// rrState is T's consistent-read snapshot: taken (T's snapshot exists),
// fresh (the statement being lowered took it) and r's columns (and
// r.$exists) in it.
type rrState struct {
	taken, fresh *ir.Var
	cols         map[*ir.Var]*ir.Var
}

// consistentReads reports whether the model follows InnoDB's consistent
// reads.
func (m *lowerer) consistentReads() bool {
	return m.concurrent() && m.opt.Concurrency.ConsistentReads
}

// plainTxRead reports whether s is a plain read on a transaction handle
// (one that may take or read a consistent snapshot).
func plainTxRead(s *ir.Select) bool {
	return s.Tx != 0 && !s.LockOnly && s.SQL != nil && !s.SQL.ForUpdate && !s.SQL.ForShare
}

func (m *lowerer) rr(st *txState) *rrState {
	if st.rr == nil {
		name := fmt.Sprintf("$tx%d.rr", st.id)
		st.rr = &rrState{
			taken: m.p.NewVar(name+".taken", ir.Bool, ir.Ghost),
			fresh: m.p.NewVar(name+".fresh", ir.Bool, ir.Ghost),
			cols:  map[*ir.Var]*ir.Var{},
		}
		for _, v := range m.rVars() {
			st.rr.cols[v] = m.p.NewVar(name+"."+v.Name, v.Type, ir.Ghost)
		}
	}
	return st.rr
}

// takeConsistent emits, at the start of plain read e on an open
// transaction, that the transaction's snapshot is taken if it was not,
// and returns the edge to lower in e's place.
func (m *lowerer) takeConsistent(e *ir.Edge) *ir.Edge {
	s, ok := e.Stmt.(*ir.Select)
	if !m.consistentReads() || !ok || !plainTxRead(s) {
		return e
	}
	st := m.txs[s.Tx]
	if st == nil {
		return e
	}
	rr := m.rr(st)
	info := s.Info
	info.Kind = ir.KindModel
	info.Text = "consistent snapshot of " + info.Text
	em := m.emitter(e.From, info)
	cur := m.view(em, s.Tx)
	lhs := []*ir.Var{rr.fresh}
	rhs := []ir.Expr{ir.And(st.open, ir.Not(rr.taken))}
	r := m.w.watched
	for _, c := range m.w.cols {
		lhs = append(lhs, rr.cols[r.cols[c]])
		rhs = append(rhs, ir.IteOf(rr.taken, rr.cols[r.cols[c]], cur.cols[c]))
	}
	lhs = append(lhs, rr.cols[r.exists])
	rhs = append(rhs, ir.IteOf(rr.taken, rr.cols[r.exists], cur.exists))
	em.assign(lhs, rhs)
	em.assign([]*ir.Var{rr.taken}, []ir.Expr{ir.Or(rr.taken, st.open)})
	n := m.p.NewLoc()
	em.jump(n)
	out := *e
	out.From = n
	return &out
}

// beginConsistent forgets T's snapshot when its transaction begins.
func (m *lowerer) beginConsistent(em *emitter, st *txState) {
	if !m.consistentReads() {
		return
	}
	rr := m.rr(st)
	em.assign([]*ir.Var{rr.taken, rr.fresh}, []ir.Expr{ir.False, ir.False})
}

// readView returns r as read s sees it: view, or for a plain read of an
// open transaction whose snapshot is taken and which has not written r,
// r in the snapshot (ghosts assigned at em).
func (m *lowerer) readView(em *emitter, s *ir.Select, view *symbol) *symbol {
	st := m.txs[s.Tx]
	if !m.consistentReads() || !plainTxRead(s) || st == nil || st.rr == nil {
		return view
	}
	old := ir.And(st.open, st.rr.taken, ir.Not(st.wrote))
	base := map[*ir.Var]ir.Expr{m.w.watched.exists: view.exists} // r's column → view's
	for _, c := range m.w.cols {
		base[m.w.watched.cols[c]] = view.cols[c]
	}
	return m.ghostR(em, "r@snapshot", view.nonNull, func(cur *ir.Var) ir.Expr {
		return ir.IteOf(old, st.rr.cols[cur], base[cur])
	})
}

// staleRead is where plain read s may read rows of the constrained table
// older than the symbols hold: its transaction's snapshot was taken by
// an earlier statement.
func (m *lowerer) staleRead(s *ir.Select) ir.Expr {
	st := m.txs[s.Tx]
	if !m.consistentReads() || !plainTxRead(s) || st == nil || st.rr == nil {
		return ir.False
	}
	return ir.And(st.open, st.rr.taken, ir.Not(st.rr.fresh))
}

// rvExists is r.$exists of view rv (false without one).
func rvExists(rv *symbol) ir.Expr {
	if rv == nil {
		return ir.False
	}
	return rv.exists
}
