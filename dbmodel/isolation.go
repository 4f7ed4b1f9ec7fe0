package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// First-updater-wins (Postgres REPEATABLE READ and SERIALIZABLE;
// Concurrency.FirstUpdaterWins).
//
// A transaction T takes its snapshot at its first statement. An UPDATE,
// DELETE or locking read of T that would change or lock r fails (40001,
// "could not serialize access due to concurrent update") where another
// transaction has committed a change of r since T's snapshot: T is then
// aborted like any failed statement. Where r is unchanged since the
// snapshot its newest version is the snapshot's, so the statement's WHERE
// reads the same values as at READ COMMITTED. Plain reads from the
// snapshot are not modelled here: the pipeline uses this model only where
// every plain read of the table is its transaction's first statement
// (then the snapshot is the state it reads).

// snapState is T's snapshot bookkeeping: taken (T's snapshot exists) and
// changed (r changed by a commit of another transaction since).
type snapState struct{ taken, changed *ir.Var }

// firstUpdaterWins reports whether the model aborts on write conflicts.
func (m *lowerer) firstUpdaterWins() bool {
	return m.concurrent() && m.opt.Concurrency.FirstUpdaterWins
}

func (m *lowerer) snap(st *txState) *snapState {
	if st.snapshot == nil {
		st.snapshot = &snapState{
			taken:   m.p.NewVar(fmt.Sprintf("$tx%d.snapshot", st.id), ir.Bool, ir.Ghost),
			changed: m.p.NewVar(fmt.Sprintf("$tx%d.r_changed", st.id), ir.Bool, ir.Ghost),
		}
	}
	return st.snapshot
}

// takeSnapshot emits, at the start of statement e on a transaction, that
// the transaction's snapshot is taken if it was not, and returns the
// edge to lower in e's place.
func (m *lowerer) takeSnapshot(e *ir.Edge) *ir.Edge {
	if !m.firstUpdaterWins() {
		return e
	}
	h := m.curHandle
	st := m.txs[h]
	if h == 0 || st == nil {
		return e
	}
	sn := m.snap(st)
	info := e.Stmt.Source()
	info.Kind = ir.KindModel
	info.Text = "snapshot of " + info.Text
	em := m.emitter(e.From, info)
	em.assign([]*ir.Var{sn.taken, sn.changed}, []ir.Expr{st.open, ir.And(sn.taken, sn.changed)})
	n := m.p.NewLoc()
	em.jump(n)
	out := *e
	out.From = n
	return &out
}

// beginSnapshot forgets T's snapshot when its transaction begins.
func (m *lowerer) beginSnapshot(em *emitter, st *txState) {
	if !m.firstUpdaterWins() {
		return
	}
	sn := m.snap(st)
	em.assign([]*ir.Var{sn.taken, sn.changed}, []ir.Expr{ir.False, ir.False})
}

// serialConflict adds to conflict (the statement's success path is
// infeasible where it holds) the serialization failure of a write of
// handle h that changes r where changes holds.
func (m *lowerer) serialConflict(h ir.Tx, changes, conflict ir.Expr) ir.Expr {
	if !m.firstUpdaterWins() {
		return conflict
	}
	st := m.txs[h]
	if h == 0 || st == nil {
		return conflict
	}
	sn := m.snap(st)
	return ir.Or(conflict, ir.And(st.open, sn.taken, sn.changed, changes))
}

// changedR records that r's committed state changed where changed holds
// (a commit of transaction self, or an autocommitted write): every other
// transaction's snapshot is now stale for r.
func (m *lowerer) changedR(em *emitter, self ir.Tx, changed ir.Expr) {
	if !m.firstUpdaterWins() || changed == ir.False {
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, t := range m.txIDs() {
		if t == self {
			continue
		}
		sn := m.snap(m.txs[t])
		lhs = append(lhs, sn.changed)
		rhs = append(rhs, ir.Or(sn.changed, changed))
	}
	em.assign(lhs, rhs)
}
