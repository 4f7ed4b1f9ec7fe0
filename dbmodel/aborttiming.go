package dbmodel

import "github.com/dbverify/dbverify/ir"

// When a failed statement ends a PostgreSQL transaction (a transaction
// object, or one sent as SQL text on a connection).
//
// The server ends the transaction at the error (tx.go, failed): its
// writes are undone and its row locks released there, not at the
// ROLLBACK the code sends later. In a model of one request alone that
// moment can be observed only by a database operation on another handle
// (the pool, another transaction or connection: it no longer waits for
// the locks) or by a later BEGIN of the same handle (a transaction begun
// in a loop); the statements of the transaction itself fail either way
// until its ROLLBACK, and its COMMIT fails and rolls back. Where neither
// may follow the failed statement, the model keeps the transaction open
// and aborted to its ROLLBACK instead, which saves a path per failing
// statement: trust/append_failures_safe (UPDATE … RETURNING in a loop of
// one transaction) took 8,826 SMT queries with the path, 3,431 without.
// A concurrent model (a product of requests, or the stability check)
// always ends the transaction at the error: other requests wait for its
// locks.

// later bits: what a location's later operations on a handle are.
const (
	laterStmt  = 1 << iota // a statement, COMMIT or ROLLBACK on the handle
	laterBegin             // a BEGIN of the handle
)

// abortObservable reports whether ending transaction h at a statement
// that starts at location from, rather than at its ROLLBACK, can make a
// difference (see above).
func (m *lowerer) abortObservable(from ir.Loc, h ir.Tx) bool {
	if m.concurrent() {
		return true
	}
	if m.later == nil {
		m.computeLater()
	}
	for t, bits := range m.later[from] {
		if t != h || bits&laterBegin != 0 {
			return true
		}
	}
	return false
}

// computeLater finds, for every location of the source program, the
// handles of the database operations some path from it reaches (a
// backward fixpoint over the edges).
func (m *lowerer) computeLater() {
	m.later = make([]map[ir.Tx]uint8, m.src.NumLocs)
	for changed := true; changed; {
		changed = false
		for _, e := range m.src.Edges {
			into := m.later[e.From]
			if into == nil {
				into = map[ir.Tx]uint8{}
				m.later[e.From] = into
			}
			add := func(t ir.Tx, bits uint8) {
				if into[t]|bits != into[t] {
					into[t] |= bits
					changed = true
				}
			}
			switch s := e.Stmt.(type) {
			case *ir.Exec:
				add(s.Tx, laterStmt)
			case *ir.Select:
				add(s.Tx, laterStmt)
			case *ir.TxOp:
				if s.Op == ir.Begin {
					add(s.Tx, laterBegin)
				} else {
					add(s.Tx, laterStmt)
				}
			}
			for t, bits := range m.later[e.To] {
				add(t, bits)
			}
		}
	}
}
