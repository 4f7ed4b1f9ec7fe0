package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// savepointsNotSearched says why concurrent requests are not checked
// when one of jobs runs SAVEPOINT, RELEASE or ROLLBACK TO ("": none
// does). The sequential row model undoes a transaction's writes to its
// savepoint (dbmodel/savepoint.go), but the concurrent one does not: its
// per-transaction lock, snapshot and first-updater state (locking
// reads, key locks, REPEATABLE READ snapshots, deadlock victims) would
// each need a state at the savepoint, and which of the locks ROLLBACK
// TO releases differs per engine.
func savepointsNotSearched(jobs ...job) string {
	for _, q := range jobs {
		if e := savepointEdge(q.prog); e != nil {
			return fmt.Sprintf("concurrent requests not checked: %s runs %s at %s, and the concurrent model does not undo a transaction's writes and locks to a savepoint", shortName(q.entry), e.Stmt.(*ir.Exec).SQL.(*sqlir.TxControl).Kind, e.Stmt.Source().Position())
		}
	}
	return ""
}

// savepointAt is the position of j's first savepoint statement.
func savepointAt(j job) string {
	if e := savepointEdge(j.prog); e != nil {
		return e.Stmt.Source().Position()
	}
	return ""
}

// savepointEdge returns the first edge of p (goroutines included) that
// runs a savepoint statement, or nil.
func savepointEdge(p *ir.Program) *ir.Edge {
	edges := [][]*ir.Edge{p.Edges}
	for _, g := range p.Goroutines {
		edges = append(edges, g.Edges)
	}
	for _, es := range edges {
		for _, e := range es {
			if s, ok := e.Stmt.(*ir.Exec); ok && sqlir.IsSavepoint(s.SQL) {
				return e
			}
		}
	}
	return nil
}
