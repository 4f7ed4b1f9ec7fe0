package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

// The concurrent check of a result in the cache. It searches the entry
// with each of its peers, so its result is kept under a key of everything
// that decides it: the tool, the options (isolation, requests, reduction,
// work limits, dialect …), the constraint, the facts (with the other
// constraints assumed), the schema, and the program of every peer with
// the isolation level the code sets at each of its BEGINs. Every verdict
// is kept, an UNKNOWN included (a limit of work, an unsupported
// construct), but only when nothing but work decided it (clockFree): no
// time limit reached, no solver check left Unknown by a clock, the run
// not cancelled. Before, a CI job that wanted text and
// SARIF searched minutes of schedules twice (independent tester adv17).

// concurrentResult is verifyConcurrent, its result read from the cache
// when an earlier run decided the same check, and kept there otherwise.
func concurrentResult(ctx context.Context, seq *report.Result, j job, peers []job, in *inputs, s *smt.Solver, cfg Config) *report.Result {
	if cfg.CacheDir == "" || cfg.KeepBoolProg || seq.Verdict != report.Safe {
		// (An entry not SAFE alone keeps its verdict: nothing to search.)
		return verifyConcurrent(ctx, seq, j, peers, in, s, cfg)
	}
	cache := resultCache{dir: cfg.CacheDir}
	key := concurrentKey(cfg, in, j, peers)
	var kept report.Result
	if cache.load(key, &kept) {
		return fromCache(&kept, seq)
	}
	start := time.Now()
	timedOut := s.Stats().TimedOut
	r, ownTimedOut := verifyConcurrentTimed(ctx, seq, j, peers, in, s, cfg)
	elapsed := time.Duration(seq.Seconds*float64(time.Second)) + time.Since(start)
	free := clockFree(ctx, cfg, elapsed, s.Stats().TimedOut-timedOut+ownTimedOut)
	if free && (r.Verdict != report.Unknown || deterministic(r.Reason, free)) {
		cache.store(key, r)
	}
	return r
}

// fromCache returns the result kept, for the entry whose sequential
// result is seq: its figures are seq's (no search ran).
func fromCache(kept *report.Result, seq *report.Result) *report.Result {
	kept.EntryPosition = seq.EntryPosition
	kept.SMTQueries, kept.Seconds, kept.SolverRestarts = seq.SMTQueries, seq.Seconds, 0
	kept.BoolProg, kept.Cached = "", true
	return kept
}

// concurrentKey returns the cache key of the concurrent check of job j
// with its peers (j first).
func concurrentKey(cfg Config, in *inputs, j job, peers []job) string {
	h := sha256.New()
	fmt.Fprintf(h, "dbverify concurrent result cache v1\x00%s\x00", cfg.ToolID)
	writeFingerprint(h, deciding(cfg))
	fmt.Fprintf(h, "\x00entry %s %s\x00", j.entry, j.pos)
	writeFingerprint(h, j.c)
	writeFingerprint(h, in.facts)
	writeFingerprint(h, in.schema)
	for _, q := range peers {
		fmt.Fprintf(h, "\x00peer %s %s\x00", q.entry, q.pos)
		writeFingerprint(h, q.prog)
		for _, level := range codeLevelsOf(in.levels, q.prog) {
			fmt.Fprintf(h, "\x00%s", level)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// deciding is cfg without what does not decide a concurrent result: where
// the packages are and how they are loaded (the programs are keyed), the
// workers and the solvers lent to them, the progress reports, the cache,
// and the wall-clock
// limits (a result is kept only when no clock acted on it).
func deciding(cfg Config) Config {
	cfg.Dir, cfg.Patterns, cfg.Packages, cfg.Solvers, cfg.Entry, cfg.Schema = "", nil, nil, nil, "", ""
	cfg.Workers, cfg.Progress, cfg.CacheDir, cfg.ToolID, cfg.KeepIR = 0, nil, "", "", false
	cfg.Phase, cfg.Started = nil, nil
	cfg.TimeoutMS, cfg.TimeLimit, cfg.Deadline = 0, 0, 0
	return cfg
}

// codeLevelsOf lists the isolation level the code sets at each BEGIN of p
// (codeLevels reads it from the source around the call, which p's text
// does not hold).
func codeLevelsOf(code *codeLevels, p *ir.Program) []string {
	var out []string
	for _, e := range p.Edges {
		if op, ok := e.Stmt.(*ir.TxOp); ok && op.Op == ir.Begin {
			level, source, ok := code.begun(op)
			out = append(out, fmt.Sprintf("%s %s %s %t", op.Info.Position(), level, source, ok))
		}
	}
	return out
}
