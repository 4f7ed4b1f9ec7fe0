package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// Deadlock victims (concurrent products only; issue 11).
//
// Two transactions of different requests deadlock when each one's next
// statement waits for a row lock the other holds: transfers 1→2 and 2→1
// that each lock their source row and then update their destination.
// The engine breaks the cycle by failing one waiting statement (the
// victim): PostgreSQL with 40P01, aborting the transaction (its writes
// are undone and its locks released at once; its later statements fail
// with 25P02 until ROLLBACK, and its COMMIT fails); MySQL/MariaDB InnoDB
// with 1213, rolling the whole transaction back (its later statements on
// the same connection run in autocommit, and its COMMIT commits
// nothing). The other statement then proceeds. Without this, a
// statement's lock wait only orders the two requests (lock waits are
// the database's order), and the victim's error path — with its locks
// released while the other request runs on — is missed: a program that
// ignores that error can break the constraint only there.
//
// The waits are those of the row locks by key (keylocks.go). A waiting
// statement of transaction V may fail as a victim where it waits for a
// lock of another open transaction: V is then marked victim, with the
// transactions it waited for (dlOn). The database operation that comes
// next, of any request, must be the one that closes the cycle: a
// statement of another request, on a transaction V waited for, that
// waits for one of V's locks; V's rollback then happens (its locks are
// released) and that statement runs on. Any other operation is
// infeasible while a victim is marked, so that no schedule lets the
// victim fail without a real cycle. A victim is modelled on a
// transaction object (BeginTx) on both engines and on a connection
// whose BEGIN is SQL text on MySQL; on PostgreSQL such a connection
// stays in its aborted transaction block, which the model does not
// keep apart from an open one, so it is left out (fewer schedules). A
// cycle through the exact lock of the watched row that no statement
// pins by key is not explored.

// deadlockState is the victim bookkeeping of one transaction.
type deadlockState struct {
	// victim: a statement of the transaction failed as a deadlock victim
	// and its rollback waits for the statement that closes the cycle.
	victim *ir.Var
	// on: the transactions the victim's statement waited for.
	on map[ir.Tx]*ir.Var
	// zombie (MySQL): the server rolled the transaction back, the client
	// still holds it: its statements run in autocommit until COMMIT or
	// ROLLBACK.
	zombie *ir.Var
	// shown: set on the victim's step, where a trace shows it
	// (DeadlockMark).
	shown *ir.Var
}

// DeadlockMark is the name, after the request's prefix ("A."), of the
// variable a counterexample's step shows true where the statement failed
// as a deadlock victim.
const DeadlockMark = "deadlock_victim"

// DeadlockVictim reports whether a trace step's values (of request req)
// mark it as a deadlock victim's.
func DeadlockVictim(req string, values map[string]string) bool {
	return values[req+"."+DeadlockMark] == "true"
}

// deadlocks reports whether the model explores deadlock victims: a
// concurrent product on PostgreSQL or MySQL whose key locks are taken by
// transactions of at least two requests.
func (m *lowerer) deadlocks() bool {
	if m.dlEnabled != nil {
		return *m.dlEnabled
	}
	on := false
	if m.concurrent() && !m.opt.Concurrency.Interference && (m.opt.Dialect == "postgres" || m.opt.Dialect == "mysql") {
		reqs := map[string]bool{}
		for _, kl := range m.keyLocks().list {
			if r := m.txRequest(kl.tx); r != "" {
				reqs[r] = true
			}
		}
		on = len(reqs) >= 2
	}
	m.dlEnabled = &on
	return on
}

// txRequest is the request (ir.Info.Request) whose statements run on
// handle t ("" if none is tagged).
func (m *lowerer) txRequest(t ir.Tx) string {
	if m.txReq == nil {
		m.txReq = map[ir.Tx]string{}
		for _, e := range m.src.Edges {
			var h ir.Tx
			var info ir.Info
			switch s := e.Stmt.(type) {
			case *ir.Exec:
				h, info = s.Tx, s.Info
			case *ir.Select:
				h, info = s.Tx, s.Info
			case *ir.TxOp:
				h, info = s.Tx, s.Info
			default:
				continue
			}
			if h != 0 && info.Request != "" {
				m.txReq[h] = info.Request
			}
		}
	}
	return m.txReq[t]
}

// victimCapable reports whether a statement of transaction st may be a
// deadlock victim (see the comment above).
func (m *lowerer) victimCapable(st *txState) bool {
	return st != nil && st.id != 0 && m.txRequest(st.id) != "" && (st.isTx || m.opt.Dialect == "mysql")
}

// dl returns st's victim bookkeeping, created on first use.
func (m *lowerer) dl(st *txState) *deadlockState {
	if st.dl == nil {
		name := fmt.Sprintf("$tx%d", st.id)
		st.dl = &deadlockState{
			victim: m.p.NewVar(name+".deadlock_victim", ir.Bool, ir.Ghost),
			zombie: m.p.NewVar(name+".rolled_back", ir.Bool, ir.Ghost),
			on:     map[ir.Tx]*ir.Var{},
			shown:  m.p.NewVar(m.txRequest(st.id)+"."+DeadlockMark, ir.Bool, ir.Local),
		}
		for _, t := range m.txIDs() {
			if t != st.id {
				st.dl.on[t] = m.p.NewVar(fmt.Sprintf("%s.deadlock_on_tx%d", name, t), ir.Bool, ir.Ghost)
			}
		}
	}
	return st.dl
}

// victims returns the transactions that may be marked deadlock victims.
func (m *lowerer) victims() []*txState {
	if !m.deadlocks() {
		return nil
	}
	var out []*txState
	for _, t := range m.txIDs() {
		if st := m.txs[t]; m.victimCapable(st) {
			out = append(out, st)
		}
	}
	return out
}

// noVictim is "no deadlock victim waits for its cycle to close": what
// every database operation but a cycle's closing statement needs.
func (m *lowerer) noVictim() ir.Expr {
	var out []ir.Expr
	for _, st := range m.victims() {
		out = append(out, ir.Not(m.dl(st).victim))
	}
	return ir.And(out...)
}

// deadlockGate returns e preceded, for a database operation that cannot
// close a deadlock cycle (lockByKey handles those that can), by the
// assumption that no victim is marked.
func (m *lowerer) deadlockGate(e *ir.Edge) *ir.Edge {
	if !m.deadlocks() {
		return e
	}
	if m.mayCloseCycle(e.Stmt) {
		return e
	}
	c := m.noVictim()
	if c == ir.True {
		return e
	}
	info := e.Stmt.Source()
	info.Kind = ir.KindModel
	info.Text = "no deadlock pending before " + info.Text
	mid := m.p.NewLoc()
	m.p.AddEdge(e.From, mid, &ir.Assume{Cond: c, Info: info})
	out := *e
	out.From = mid
	return &out
}

// mayCloseCycle reports whether statement s waits for key locks on a
// transaction (lockByKey then decides the victims' fate).
func (m *lowerer) mayCloseCycle(s ir.Stmt) bool {
	table, where, args, h, ok := m.lockSpec(s)
	if !ok || h == 0 || m.txs[h] == nil {
		return false
	}
	saved := m.fresh
	key, _ := m.pinned(table, where, args)
	m.fresh = saved
	return key != nil
}

// closeCycles emits, before statement s of handle h whose key-lock waits
// on each transaction are waitsOn, that every marked victim is closed by
// s (s is of another request, on a transaction the victim waited for,
// and waits for one of the victim's locks), and the victims' rollback.
func (m *lowerer) closeCycles(em *emitter, h ir.Tx, waitsOn map[ir.Tx]ir.Expr) {
	vs := m.victims()
	if len(vs) == 0 {
		return
	}
	var ok []ir.Expr
	for _, v := range vs {
		d := m.dl(v)
		closes := ir.Expr(ir.False)
		if w, has := waitsOn[v.id]; has && v.id != h && m.txRequest(v.id) != m.txRequest(h) {
			closes = ir.And(d.on[h], w)
		}
		ok = append(ok, ir.Or(ir.Not(d.victim), closes))
	}
	em.assume(ir.And(ok...))
	for _, v := range vs {
		d := m.dl(v)
		if _, has := waitsOn[v.id]; !has {
			continue
		}
		join := m.p.NewLoc()
		rel := em.fork(d.victim)
		m.rollback(rel, v)
		var lhs []*ir.Var
		var rhs []ir.Expr
		lhs = append(lhs, d.victim)
		rhs = append(rhs, ir.False)
		if m.opt.Dialect == "mysql" {
			lhs = append(lhs, d.zombie)
			rhs = append(rhs, ir.True)
		}
		rel.assign(lhs, rhs)
		rel.jump(join)
		em.jump(join)
	}
}

// victimPath forks, at statement e of handle h waiting (waits) for the
// key locks waitsOn, the path where it fails as a deadlock victim: its
// transaction is marked, its error flag set, and it goes on at e.To.
func (m *lowerer) victimPath(em *emitter, e *ir.Edge, h ir.Tx, waits ir.Expr, waitsOn map[ir.Tx]ir.Expr) {
	st := m.txs[h]
	if !m.deadlocks() || !m.victimCapable(st) || waits == ir.False {
		return
	}
	d := m.dl(st)
	choice := m.p.NewVar("$deadlock", ir.Bool, ir.Ghost)
	em.havoc(choice)
	fail := em.fork(ir.And(choice, st.open, waits))
	lhs := []*ir.Var{d.victim}
	rhs := []ir.Expr{ir.True}
	for t, v := range d.on {
		lhs = append(lhs, v)
		w, has := waitsOn[t]
		if !has {
			w = ir.False
		}
		rhs = append(rhs, w)
	}
	if nr := stmtNoRow(e.Stmt); nr != nil {
		lhs = append(lhs, nr)
		rhs = append(rhs, ir.False)
	}
	if m.opt.Dialect == "postgres" {
		lhs = append(lhs, st.aborted)
		rhs = append(rhs, ir.True)
	}
	fail.assign(lhs, rhs)
	// The error flag and the mark on the statement's own step.
	shown := m.emitter(fail.cur, e.Stmt.Source())
	var sl []*ir.Var
	var sr []ir.Expr
	if err := stmtErr(e.Stmt); err != nil {
		sl, sr = append(sl, err), append(sr, ir.True)
	}
	shown.assign(append(sl, d.shown), append(sr, ir.True))
	shown.jump(e.To)
}

// stmtNoRow is the no-row flag of a database statement (nil if none).
func stmtNoRow(s ir.Stmt) *ir.Var {
	switch s := s.(type) {
	case *ir.Select:
		return s.NoRow
	case *ir.Exec:
		return s.NoRow
	}
	return nil
}

// zombieUsable is what makes a statement on transaction object st run
// (in autocommit) after the server rolled it back as a deadlock victim
// (MySQL).
func (m *lowerer) zombieUsable(st *txState) ir.Expr {
	if st.dl == nil || m.opt.Dialect != "mysql" {
		return ir.False
	}
	return st.dl.zombie
}

// endZombie forgets, at BEGIN, COMMIT or ROLLBACK of st, that the server
// rolled st back.
func (m *lowerer) endZombie(em *emitter, st *txState) {
	if st.dl == nil {
		return
	}
	em.assign([]*ir.Var{st.dl.victim, st.dl.zombie}, []ir.Expr{ir.False, ir.False})
}
