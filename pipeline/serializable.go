package pipeline

import (
	"context"
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

// The serializable proof. PostgreSQL's SERIALIZABLE (SSI) commits only
// schedules equivalent to some serial order of the committed
// transactions; the others fail with 40001. When every request that may
// write the constrained table does all its work in one transaction, begun
// SERIALIZABLE, each committed transaction is a whole request, and each
// request keeps the constraint alone (its sequential verdict), every
// concurrent run keeps it too, for any number of requests: no
// interleaving needs exploring. The search could only have said UNKNOWN
// there (a schedule it finds may be one SSI aborts), after a long time
// for requests with a retry loop around the transaction (an independent
// suite's p40: 1,056 s to the query limit; the corpus's
// pg_serializable_retry_safe: 88 s).

// serialProof returns why the requests of j and of its peers keep the
// constraint by serializability, or "" when they may not, and the
// isolation level it relied on; queries counts the solver queries of the
// peers' sequential checks.
func serialProof(ctx context.Context, j job, peers []job, in *inputs, s *smt.Solver, cfg Config) (why string, iso report.Isolation, queries int, err error) {
	if string(cfg.Dialect) != "postgres" && progDialect(cfg, j.prog) != "postgres" {
		return "", iso, 0, nil
	}
	progs := []*ir.Program{j.prog}
	for _, q := range peers {
		progs = append(progs, q.prog)
	}
	iso = isolationOf(cfg.Isolation, string(cfg.Dialect), in.levels, progs...)
	if iso.Level != Serializable {
		return "", iso, 0, nil
	}
	for _, p := range progs {
		if !oneTransaction(p) {
			return "", iso, 0, nil
		}
	}
	for _, q := range peers {
		if q.entry == j.entry {
			continue
		}
		res, _, err := checkModel(ctx, q.prog, j.c, in, s, cfg, nil)
		if err != nil {
			return "", iso, queries, err
		}
		queries += res.Stats.SMTQueries
		if res.Verdict != report.Safe {
			return "", iso, queries, nil
		}
	}
	return fmt.Sprintf("every request that may write %s runs in one SERIALIZABLE transaction (%s) and keeps the constraint alone: PostgreSQL commits only serializable schedules", j.c.Tables()[0], iso.Source), iso, queries, nil
}

// oneTransaction reports whether every statement of p runs in the one
// transaction p begins (one BEGIN in the code, perhaps in a retry loop,
// begun by the driver, not sent as SQL text on a connection).
func oneTransaction(p *ir.Program) bool {
	var tx ir.Tx
	begins := 0
	for _, e := range p.Edges {
		if op, ok := e.Stmt.(*ir.TxOp); ok && op.Op == ir.Begin {
			if op.Conn {
				return false
			}
			begins++
			tx = op.Tx
		}
	}
	if begins != 1 {
		return false
	}
	for _, e := range p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Select:
			if s.Tx != tx {
				return false
			}
		case *ir.Exec:
			if s.Tx != tx {
				return false
			}
		case *ir.TxOp:
			if s.Tx != tx {
				return false
			}
		}
	}
	return true
}
