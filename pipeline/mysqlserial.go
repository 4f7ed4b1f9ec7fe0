package pipeline

import (
	"github.com/dbverify/dbverify/ir"
)

// MySQL SERIALIZABLE. InnoDB runs SERIALIZABLE as REPEATABLE READ whose
// plain SELECTs inside a transaction are shared locking reads (LOCK IN
// SHARE MODE): they read the newest committed version and hold the
// row's shared lock until the transaction ends. A request whose every
// transaction is SERIALIZABLE is therefore checked, alone (stability) and
// in the 2-request search, with its plain reads on transaction objects
// turned into FOR SHARE reads; the search is then exact as it is for
// REPEATABLE READ without plain reads in transactions (isolationGap). A
// program with transactions begun as SQL text on a connection is left
// as it is (a read there may be outside the transaction, a consistent
// read): the search stays UNKNOWN for it.

// mysqlSerialReads returns p with its plain reads on transaction objects
// made shared locking reads when p runs on MySQL and every transaction
// it begins is SERIALIZABLE (isolationOf of p alone); p itself otherwise.
func mysqlSerialReads(cfg Config, code *codeLevels, p *ir.Program) *ir.Program {
	if string(cfg.Dialect) != "mysql" {
		return p
	}
	if iso := isolationOf(cfg.Isolation, "mysql", code, p); iso.Level != Serializable {
		return p
	}
	txs := map[ir.Tx]bool{}
	for _, e := range p.Edges {
		if op, ok := e.Stmt.(*ir.TxOp); ok {
			if op.Conn {
				return p
			}
			if op.Op == ir.Begin {
				txs[op.Tx] = true
			}
		}
	}
	if len(txs) == 0 {
		return p
	}
	out := p.Shell()
	for _, e := range p.Edges {
		s := e.Stmt
		if sel, ok := s.(*ir.Select); ok && txs[sel.Tx] && !sel.SQL.ForUpdate && !sel.SQL.ForShare && !sel.SQL.Complex {
			locked := *sel
			q := *sel.SQL
			q.ForShare = true
			locked.SQL = &q
			s = &locked
		}
		out.AddEdge(e.From, e.To, s)
	}
	return out
}
