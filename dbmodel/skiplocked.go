package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// SKIP LOCKED in one request.
//
// FOR UPDATE / FOR SHARE … SKIP LOCKED leaves out the rows another
// transaction holds a conflicting lock on; a transaction's own locks
// never make it skip a row. Where no other request runs, the only other
// transactions are the entry's own: with none that may hold a row lock
// when the read runs, SKIP LOCKED skips nothing, and the read is the
// plain locking read (its first row of an ORDER BY is stated as for any
// other read: jobq.Claim, the canonical queue claim, was UNKNOWN). A
// lock is held by a statement on another transaction or connection of
// the entry (a write, which may also lock rows of this table through a
// foreign key, or a locking read), or by an earlier transaction of the
// same handle left open when the handle is begun again (a BEGIN in a
// loop): then the rows skipped are not modelled and the read's first
// row is not stated. The pool's statements commit, and release their
// locks, before the next one starts. Under concurrent requests SKIP
// LOCKED is never modelled (orderColumns).
//
// Where rows may be skipped (another transaction of the entry, or
// another request, may hold a lock), the read is unsupported: the model
// would return a locked row that matches where the engine returns
// another row or none, and a path taken only on "no row" (a claim of
// nothing, then a write through the transaction that holds the row) was
// never explored, a wrong SAFE.

// skipLocked makes the entry unsupported where SKIP LOCKED read s of a
// table the model tracks may skip rows (see above).
func (m *lowerer) skipLocked(s *ir.Select) {
	if s.SQL == nil || !s.SQL.SkipLocked || m.model(s.SQL.Table) == nil {
		// (A read of a table the model does not track may return any
		// row, or none.)
		return
	}
	why := ""
	switch {
	case m.concurrent():
		why = "other requests lock"
	case !m.skipsNoRow(s):
		why = "another transaction of the entry may lock"
	default:
		return
	}
	m.p.Unsupport(fmt.Sprintf("SKIP LOCKED, which leaves out rows %s (the model would read them)", why), s.Info)
}

// skipsNoRow reports whether SELECT s, FOR UPDATE/SHARE … SKIP LOCKED,
// skips no row in a sequential model: no other handle of the program
// takes a row lock, and s's own transaction is not begun again while an
// earlier one may be open.
func (m *lowerer) skipsNoRow(s *ir.Select) bool {
	for _, e := range m.src.Edges {
		switch x := e.Stmt.(type) {
		case *ir.Exec:
			if x.Tx != 0 && x.Tx != s.Tx {
				return false
			}
		case *ir.Select:
			if x.Tx != 0 && x.Tx != s.Tx && (x.LockOnly || x.SQL == nil || locking(x.SQL)) {
				return false
			}
		case *ir.TxOp:
			if x.Tx == s.Tx && x.Op == ir.Begin && m.beginsAgain(e) {
				return false
			}
		}
	}
	return true
}

// locking reports whether q takes row locks.
func locking(q *sqlir.Select) bool { return q.ForUpdate || q.ForShare || q.KeyShare }

// beginsAgain reports whether BEGIN edge b may run again after it ran
// (it is on a cycle of the program).
func (m *lowerer) beginsAgain(b *ir.Edge) bool {
	next := func(l ir.Loc) []ir.Loc {
		var out []ir.Loc
		for _, e := range m.src.Out[l] {
			out = append(out, e.To)
		}
		return out
	}
	return reachLocs(b.To, next)[b.From]
}
