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
// UNSAFE. Where w pins a key (for a key slot's table, the slot's key) to
// the value r has, r is the only row w can match, and the result is
// exactly whether r is counted, no approximation: AddPet's SELECT
// COUNT(*) FROM owners WHERE id = $1 guard proves the owner exists, and
// SELECT EXISTS (SELECT 1 FROM cards WHERE code = $1 AND value >= $2)
// that the card r with that code has the value.
// It reports false (nothing lowered) for any other read.
func (m *lowerer) countSelect(e *ir.Edge, s *ir.Select, t *tableModel) bool {
	q := s.SQL
	if !(q.CountRows || q.ExistsRows) || t != m.w && !t.slot || len(q.Tables()) != 1 {
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
	// (slotLimits): the read sees the slot as it is; under concurrent
	// requests, as the committed state has it (refconcurrent.go).
	rv := t.watched
	switch {
	case m.splitSlot(t):
		m.slotLockingRead(em, s)
		rv = m.viewOf(em, s.Tx, t)
	case !t.slot:
		rv = m.readView(em, s, m.view(em, s.Tx))
	}
	counted := ir.And(rv.exists, m.where(q.Where, rv, s.Args))
	exact := m.countsOnly(t, rv, q.Where, s.Args)
	if exact == ir.False {
		exact = m.countsTrackedOnly(em, t, s.Tx)
	}
	em.havoc(m.takeFresh()...)
	if exact != ir.False {
		// The WHERE pins a key to the value rv has: no other row can
		// match, so the result is exactly whether rv is counted.
		pe := em.fork(exact)
		val := ir.Expr(counted)
		if n.Type != ir.Bool {
			val = ir.IteOf(counted, ir.IntLit(1), ir.IntLit(0))
		}
		pe.assign([]*ir.Var{target}, []ir.Expr{val})
		pe.jump(e.To)
	}
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
	em.assign([]*ir.Var{target}, []ir.Expr{n})
	em.jump(e.To)
	return true
}

// countsOnly is the condition under which rv is the only row of t the
// WHERE can match: where pins a key of t to a value (pinnedKey; for a key
// slot, the slot's key), and rv has that value — and exists, unless rv
// is a key slot, which stands for the row with its key whether or not
// there is one. False when where pins no key.
func (m *lowerer) countsOnly(t *tableModel, rv *symbol, where sqlir.Expr, args []ir.Expr) ir.Expr {
	if t.slot {
		key := t.propCols[:1]
		if vals := m.keyValue(t, key, where, args); vals != nil {
			return t.keyEq(rv, key, vals)
		}
		return ir.False
	}
	key, vals := m.pinnedKey(t, where, args)
	if key == nil {
		return ir.False
	}
	return ir.And(rv.exists, t.keyEq(rv, key, vals))
}
