package dbmodel

import "github.com/dbverify/dbverify/ir"

// The watched row's absence (concurrent models only).
//
// r stands for the row with its key. While r does not exist and the
// program has written no row the symbols do not track (¬dirty), no row
// has r's key: a statement that pins r's key finds nothing. Without this
// the model lets a read or a key-pinned UPDATE find an untracked row with
// r's key while r is absent, and another request may then insert r with
// that same key, two rows with one key. (The sequential model keeps the
// looser form: it never makes an absent r exist again with its key
// taken.)

// absentKey returns, for an UPDATE pinning key to vals with rows-affected
// count n, that it affects no row where r is absent, has that key and
// the program wrote no untracked row.
func (m *lowerer) absentKey(key []string, vals []ir.Expr, n *ir.Var) ir.Expr {
	if !m.concurrent() || n == nil || vals == nil {
		return ir.True
	}
	return ir.Implies(ir.And(ir.Not(m.r.exists), ir.Not(m.dirty), keyEq(m.r, key, vals)), ir.Eq(n, ir.IntLit(0)))
}

// absentRead returns, for the row x a SELECT returned, that it is not a
// row with the key of r where r (as the handle sees it: rv) is absent
// and the program wrote no untracked row.
func (m *lowerer) absentRead(x, rv *symbol) ir.Expr {
	if !m.concurrent() {
		return ir.True
	}
	same := m.sameRow(x, rv)
	if same == ir.False {
		return ir.True
	}
	return ir.Not(ir.And(ir.Not(rv.exists), ir.Not(m.dirty), same))
}
