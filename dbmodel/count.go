package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// countSelect lowers SELECT COUNT(*) FROM t WHERE w of the constrained
// table or of a reference's key slot (sqlir.Select.CountRows), scanned
// into one integer, in a sequential run: the count n is at least 0, and
// at least 1 where r, as the read sees it, exists and satisfies w (so a
// count of 0 says r does not match). SELECT EXISTS (SELECT … FROM t WHERE w) (ExistsRows),
// scanned into a bool or an integer, likewise: true (1) where r exists
// and satisfies w. The other rows are not tracked, so the result is
// otherwise arbitrary and marked as an approximation: a proof may rely on
// the facts, a counterexample that tests the result is not reported as
// UNSAFE. Of a key slot's table, where w pins the key to the slot's, a
// result other than 0 counted the slot (the key is unique): AddPet's
// SELECT COUNT(*) FROM owners WHERE id = $1 guard proves the owner exists.
// It reports false (nothing lowered) for any other read.
func (m *lowerer) countSelect(e *ir.Edge, s *ir.Select, t *tableModel) bool {
	q := s.SQL
	if !(q.CountRows || q.ExistsRows) || t != m.w && !t.slot || m.concurrent() || len(q.Tables()) != 1 {
		return false
	}
	var target *ir.Var
	for i, v := range s.Targets {
		if v == nil {
			continue
		}
		if i != 0 || v.Str || v.Type != ir.Int && !(q.ExistsRows && v.Type == ir.Bool) {
			return false
		}
		target = v
	}
	if target == nil {
		return false
	}
	what := "COUNT"
	if q.ExistsRows {
		what = "EXISTS"
	}
	n := m.p.NewVar("$"+what, target.Type, ir.Ghost)
	n.Approx = fmt.Sprintf("the %s of the SELECT at %s (only whether it counts the row %s is modelled, not the other rows of %s)",
		what, s.Info.Position(), t.watched.name, t.spelled)
	em := m.errFork(e, s.Info, s.Err, noFacts, nil, n)
	// A key slot's table is read on one handle in a sequential run
	// (slotLimits): the read sees the slot as it is.
	rv := t.watched
	if !t.slot {
		rv = m.readView(em, s, m.view(em, s.Tx))
	}
	counted := ir.And(rv.exists, m.where(q.Where, rv, s.Args))
	only := m.countsOnlySlot(t, q.Where, s.Args)
	em.havoc(m.takeFresh()...)
	// Facts of the engine: what bounds the result is not a read of it (a
	// path that never tests it does not depend on its approximation).
	switch {
	case n.Type == ir.Bool:
		em.fact(ir.Implies(counted, n))
	case q.ExistsRows:
		em.fact(ir.And(ir.Cmp(ir.OpGe, n, ir.IntLit(0)), ir.Cmp(ir.OpLe, n, ir.IntLit(1))))
		em.fact(ir.Implies(counted, ir.Eq(n, ir.IntLit(1))))
	default:
		em.fact(ir.Cmp(ir.OpGe, n, ir.IntLit(0)))
		em.fact(ir.Implies(counted, ir.Cmp(ir.OpGe, n, ir.IntLit(1))))
	}
	if only != ir.False {
		// Every row counted has the slot's key, which one row at most
		// holds: a non-zero result counted the slot.
		nonZero := ir.Expr(n)
		if n.Type != ir.Bool {
			nonZero = ir.Cmp(ir.OpGe, n, ir.IntLit(1))
		}
		em.fact(ir.Implies(ir.And(only, nonZero), counted))
	}
	em.assign([]*ir.Var{target}, []ir.Expr{n})
	em.jump(e.To)
	return true
}

// countsOnlySlot is, for a key slot's table t, the condition under which
// the rows where matches are the slot's: where pins the slot's key
// column to a value, and the slot has that key (False when t is no slot
// or where does not pin the key).
func (m *lowerer) countsOnlySlot(t *tableModel, where sqlir.Expr, args []ir.Expr) ir.Expr {
	if !t.slot {
		return ir.False
	}
	key := t.propCols[:1]
	vals := m.keyValue(t, key, where, args)
	if vals == nil {
		return ir.False
	}
	return t.keyEq(t.watched, key, vals)
}
