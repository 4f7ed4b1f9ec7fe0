package dbmodel

import (
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
