package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Rows held by a row lock (concurrent models).
//
// A row a transaction has read with FOR UPDATE / FOR SHARE (MySQL: LOCK
// IN SHARE MODE) exists with the key it was read with until that
// transaction ends: no other transaction can delete it or change its key
// while the lock is held. The symbol of such a read may stop being live
// meanwhile (another request's ROLLBACK or commit makes every symbol
// forget its values), but its key and existence still say which key an
// INSERT cannot take: an upsert of the locked key takes the conflict
// path (keyClash). Without this, a request that locked its row and then
// upserts it was given the insert path after the other request rolled
// back: a counterexample no engine runs (adv5 p73w).
//
// Kept only where it is exact: the program never deletes rows of the
// table, never sets one of its key columns, and nothing replaces,
// key-upserts or cascades into it (the insert sites' unstableTables),
// so the lock holder itself cannot remove the row either; the read is
// on a handle whose transaction is open when it runs.

// heldSymbol gives x a held flag if SELECT s on table t locks the row
// it reads in a concurrent model and the table's keys are stable.
func (m *lowerer) heldSymbol(x *symbol, s *ir.Select, t *tableModel) {
	if !m.concurrent() || !(s.SQL.ForUpdate || s.SQL.ForShare) || s.Tx == 0 || len(t.keys) == 0 {
		return
	}
	if m.keysUnstable == nil {
		m.keysUnstable = m.unstableKeys()
	}
	if m.keysUnstable[t.name] {
		return
	}
	x.held = m.p.NewVar(x.name+".$held", ir.Bool, ir.Ghost)
	x.heldBy = s.Tx
}

// unstableKeys returns the tables (lower case) whose rows a statement of
// the program may delete or re-key.
func (m *lowerer) unstableKeys() map[string]bool {
	out := m.unstableTables()
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		switch q := s.SQL.(type) {
		case *sqlir.Delete:
			out[strings.ToLower(q.Table)] = true
		case *sqlir.Update:
			if m.setsKey(q.Table, q.Set) {
				out[strings.ToLower(q.Table)] = true
			}
		}
	}
	return out
}

// bindHeld records, after SELECT s bound x, whether x's row is now held
// by the lock of s's open transaction.
func (m *lowerer) bindHeld(em *emitter, s *ir.Select, x *symbol) {
	if x.held == nil {
		return
	}
	var held ir.Expr = ir.False
	if st := m.txs[s.Tx]; st != nil {
		held = st.open
	}
	em.assign([]*ir.Var{x.held}, []ir.Expr{held})
}

// releaseHeld returns the assignments that end the locks transaction st
// holds on the rows of symbols (at its BEGIN, COMMIT and ROLLBACK).
func (m *lowerer) releaseHeld(st *txState) (lhs []*ir.Var, rhs []ir.Expr) {
	for _, t := range m.tableList() {
		for _, x := range t.syms {
			if x.held != nil && x.heldBy == st.id {
				lhs = append(lhs, x.held)
				rhs = append(rhs, ir.False)
			}
		}
	}
	return lhs, rhs
}

// isHeld is "x's row is held by a row lock" (false for a symbol that
// never is).
func (x *symbol) isHeld() ir.Expr {
	if x.held == nil {
		return ir.False
	}
	return x.held
}
