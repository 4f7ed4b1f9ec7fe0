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

// absentKey returns, for an UPDATE of t pinning key to vals with
// rows-affected count n, that it affects no row where t's watched row r is
// absent, has that key and the program wrote no untracked row of t.
func (m *lowerer) absentKey(t *tableModel, key []string, vals []ir.Expr, n *ir.Var) ir.Expr {
	if !m.concurrent() || n == nil || vals == nil || t.watched == nil {
		return ir.True
	}
	r := t.watched
	return ir.Implies(ir.And(ir.Not(r.exists), ir.Not(t.dirty), t.keyEq(r, key, vals)), ir.Eq(n, ir.IntLit(0)))
}

// absentRead returns, for the row x of t a SELECT returned, that it is
// not a row with the key of r where r (as the handle sees it: rv; nil:
// not tracked by the transactions) is absent and the program wrote no
// untracked row of t.
func (m *lowerer) absentRead(t *tableModel, x, rv *symbol) ir.Expr {
	if !m.concurrent() || rv == nil {
		return ir.True
	}
	same := t.sameRow(x, rv)
	if same == ir.False {
		return ir.True
	}
	return ir.Not(ir.And(ir.Not(rv.exists), ir.Not(t.dirty), same))
}
