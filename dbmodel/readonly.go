package dbmodel

import "github.com/dbverify/dbverify/ir"

// Read-only transactions: the engine refuses every write of a
// transaction begun read-only (ir.TxOp.ReadOnly): the statement fails
// (PostgreSQL's SQLSTATE 25006, which aborts the transaction like any
// error; MariaDB's error 1792) and changes nothing.

// readOnlyTxs returns the handles of p every BEGIN of which begins a
// read-only transaction, outside a connection (where a statement may run
// before or between transactions, in autocommit).
func readOnlyTxs(p *ir.Program) map[ir.Tx]bool {
	readOnly := map[ir.Tx]bool{}
	for _, e := range p.Edges {
		s, ok := e.Stmt.(*ir.TxOp)
		if !ok || s.Op != ir.Begin {
			continue
		}
		prev, seen := readOnly[s.Tx]
		readOnly[s.Tx] = s.ReadOnly && !s.Conn && (prev || !seen)
	}
	return readOnly
}

// refusedWrite reports whether the write s runs in a read-only
// transaction, which refuses it: only its failure path remains.
func (m *lowerer) refusedWrite(s *ir.Exec) bool {
	return s.Tx != 0 && m.readOnly[s.Tx] && writtenTable(s.SQL) != ""
}
