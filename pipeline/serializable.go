package pipeline

import (
	"context"
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
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
//
// SQLite runs every transaction serializably, whatever the journal mode:
// one writer at a time (a RESERVED lock in rollback-journal mode, the WAL
// write lock in WAL mode) held to the transaction's end, and readers that
// see one committed state throughout (rollback journal: a reader's SHARED
// lock keeps a writer from committing; WAL: the read snapshot, and a read
// transaction whose snapshot is no longer the newest cannot start writing,
// SQLITE_BUSY_SNAPSHOT). BEGIN DEFERRED takes the write lock at the first
// write, BEGIN IMMEDIATE at BEGIN; either way the committed transactions
// run as in a serial order. A statement that fails there (SQLITE_BUSY, a
// constraint) is undone alone and the transaction goes on: the code may
// ignore the error and commit what it wrote before, which is a serial run
// of the request in which that statement failed, and the sequential model
// lets any statement fail that way on SQLite (a failed statement aborts
// the transaction only on PostgreSQL). SQLITE_BUSY never rolls the whole
// transaction back (SQLite ignores it when spilling its page cache; a
// COMMIT that gets it leaves the transaction open and commits nothing,
// database/sql reports the error and the request's writes are not
// published). Only I/O errors, a full disk or memory exhaustion roll back
// the whole transaction, after which the code's later statements would
// run on their own: the sequential check does not model those either.

// serialProof returns why the requests of j and of its peers keep the
// constraint by serializability, or "" when they may not, and the
// isolation level it relied on; queries counts the solver queries of the
// peers' sequential checks.
func serialProof(ctx context.Context, j job, peers []job, in *inputs, s *smt.Solver, cfg Config) (why string, iso report.Isolation, queries int, err error) {
	dialect := progDialect(cfg, j.prog)
	if dialect != "postgres" && dialect != "sqlite" {
		return "", iso, 0, nil
	}
	progs := []*ir.Program{j.prog}
	for _, q := range peers {
		if progDialect(cfg, q.prog) != dialect {
			return "", iso, 0, nil
		}
		progs = append(progs, q.prog)
	}
	iso = isolationOf(cfg.Isolation, dialect, in.levels, progs...)
	if iso.Level != Serializable {
		return "", iso, 0, nil
	}
	if !serialRequests(dialect, progs...) {
		return "", iso, 0, nil
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
	engine := "PostgreSQL commits only serializable schedules"
	if dialect == "sqlite" {
		engine = "SQLite runs one writing transaction at a time and a transaction that read an older state cannot write (SQLITE_BUSY), so it commits only serializable schedules; a statement that fails is undone alone, as the sequential check lets any statement fail"
	}
	return fmt.Sprintf("every request that may write %s runs in one SERIALIZABLE transaction (%s) and keeps the constraint alone: %s", j.c.Tables()[0], iso.Source, engine), iso, queries, nil
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

// oneStatement reports whether p runs exactly one statement, on its own
// (no transaction, run at most once): a write of SQLite's that commits
// on its own is a serializable transaction of its own. (Not on
// PostgreSQL: a statement outside a SERIALIZABLE transaction runs at the
// session's default level, and SSI guarantees nothing about it.)
func oneStatement(p *ir.Program) bool {
	n := 0
	for _, e := range p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.TxOp:
			return false
		case *ir.Select:
			n++
		case *ir.Exec:
			switch s.SQL.(type) {
			case *sqlir.Update, *sqlir.Insert, *sqlir.Delete:
			default:
				return false
			}
			n++
		default:
			continue
		}
		if onCycle(p, e) {
			return false
		}
	}
	return n == 1 && len(p.Settings) == 0
}

// serialRequests reports whether each of progs does all its work in one
// transaction (on SQLite, or in one statement) whose retry attempts start
// afresh (carriedRead), and the front end modelled all of it: each
// committed transaction is then a serial run of its request.
func serialRequests(dialect string, progs ...*ir.Program) bool {
	if firstUnsupported(progs...) != nil {
		// (Its sequential check, which the proof reads, would be
		// UNKNOWN: the row model leaves what it cannot model out.)
		return false
	}
	for _, p := range progs {
		if !oneTransaction(p) && (dialect != "sqlite" || !oneStatement(p)) {
			return false
		}
		if carriedRead(p) != nil {
			return false
		}
	}
	return true
}

// serialPair returns why the pair of requests j and q keeps the
// constraint by serializability without a search ("" when it may not):
// the serializable proof for two requests. Where some other request that
// may run concurrently is not serializable (an autocommit statement at
// READ COMMITTED), serialProof cannot speak for any number of requests,
// but the 2-request search, which considers j and q alone, can still
// rest on it for this pair: both run in one SERIALIZABLE transaction per
// request on PostgreSQL (SQLite: serializable whatever the level), so
// every committed pair of transactions is equivalent to one of the two
// serial orders, and each request keeps the constraint alone (j's
// sequential verdict; q's is checked here). The search of such a pair
// could only have said UNKNOWN (a schedule it finds may be one SSI
// aborts) after its whole budget: adv17's Hold ∥ Hold (pgx.BeginTxFunc
// SERIALIZABLE with a retry loop) ran into the query and predicate
// limits. queries counts the solver queries of q's sequential check.
func serialPair(ctx context.Context, j, q job, in *inputs, s *smt.Solver, cfg Config) (why string, queries int, err error) {
	dialect := progDialect(cfg, j.prog)
	if dialect != "postgres" && dialect != "sqlite" || progDialect(cfg, q.prog) != dialect {
		return "", 0, nil
	}
	if isolationOf(cfg.Isolation, dialect, in.levels, j.prog, q.prog).Level != Serializable {
		return "", 0, nil
	}
	if !serialRequests(dialect, j.prog, q.prog) {
		return "", 0, nil
	}
	if q.entry != j.entry {
		res, _, err := checkModel(ctx, q.prog, j.c, in, s, cfg, nil)
		if err != nil {
			return "", 0, err
		}
		if res.Verdict != report.Safe {
			return "", res.Stats.SMTQueries, nil
		}
		queries = res.Stats.SMTQueries
	}
	return fmt.Sprintf("%s ∥ %s: not searched, as both requests run in one SERIALIZABLE transaction each and keep the constraint alone, and the engine commits only serializable schedules", shortName(j.entry), shortName(q.entry)), queries, nil
}
