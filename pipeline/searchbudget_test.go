package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
)

// concurrentJob plans the one entry of pkg (testdata/concurrent) and
// returns it with its peers, the inputs and its sequential result.
func concurrentJob(t *testing.T, cfg Config) (job, []job, *inputs, *report.Result) {
	t.Helper()
	jobs, in := plannedJobs(t, cfg)
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(jobs))
	}
	s, err := newSolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seq := runJob(context.Background(), cfg, in, jobs[0], s)
	if seq.Verdict != report.Safe {
		t.Fatalf("alone: %s (%s), want SAFE", seq.Verdict, seq.Reason)
	}
	return jobs[0], peers(jobs, jobs[0]), in, seq
}

// TestConcurrentTimeLimit: --time-limit bounds the whole result, the
// concurrent check included (adv10 item 8: with --time-limit 12m the
// search of p15's schedule plans still ran at 14 minutes, each plan and
// product getting the whole limit again). A sequential check that used
// the whole limit leaves the concurrent one none: the result is UNKNOWN,
// its reason names --time-limit and where the check stopped, and the
// worker's solver, which the next jobs use, is not interrupted. With
// --requests 3 as well (adv8 P1's 3-request search ran 14 minutes).
func TestConcurrentTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		pkg, isolation string
		requests       int
	}{{"./txplain", "rr", 2}, {"./threetx", "", 3}} {
		t.Run(tc.pkg, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tc.pkg}, Dialect: "postgres", Isolation: tc.isolation,
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true, Requests: tc.requests, TimeLimit: time.Hour}
			j, ps, in, seq := concurrentJob(t, cfg)
			seq.Seconds = cfg.TimeLimit.Seconds()
			s, err := newSolver(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			r := verifyConcurrent(context.Background(), seq, j, ps, in, s, cfg)
			if r.Verdict != report.Unknown || refine.LimitOf(r.Reason) != refine.LimitWallClock ||
				!strings.Contains(r.Reason, "--time-limit") || !strings.Contains(r.Reason, "stopped in ") {
				t.Fatalf("%s %q; want UNKNOWN at the time limit, saying where the check stopped", r.Verdict, r.Reason)
			}
			if err := s.Reset(); err != nil {
				t.Errorf("the worker's solver after the limit: %v", err)
			}
		})
	}
}

// TestConcurrentCancelled: an interrupted run (SIGINT) leaves the
// concurrent check UNKNOWN "cancelled", not an internal error (adv10:
// "internal: smt: set rlimit: solver interrupted").
func TestConcurrentCancelled(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./txplain"}, Dialect: "postgres", Isolation: "rr",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true, TimeLimit: time.Hour}
	j, ps, in, seq := concurrentJob(t, cfg)
	s, err := newSolver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := verifyConcurrent(ctx, seq, j, ps, in, s, cfg); r.Verdict != report.Unknown || r.Reason != refine.ReasonCancelled {
		t.Fatalf("%s %q, want UNKNOWN %q", r.Verdict, r.Reason, refine.ReasonCancelled)
	}
}

// TestConcurrentQueryLimit: --max-queries bounds the SMT queries of the
// whole concurrent check of a result, not each product's: with a quarter
// of the queries the search of txplain at REPEATABLE READ spends (its 25
// schedule plans take about 40 % of them, the product of every
// interleaving after them, undecided, most of the rest), the result is
// UNKNOWN at a work limit that names --max-queries, and it spends at most
// about that many. (With more, the plans all keep the constraint and the
// cut product of every interleaving leaves their SAFE standing.)
func TestConcurrentQueryLimit(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./txplain"}, Dialect: "postgres", Isolation: "rr",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
	run := func(cfg Config) *report.Result {
		rep, err := runShared(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%d results, want 1", len(rep.Results))
		}
		return rep.Results[0]
	}
	full := run(cfg)
	if full.Verdict != report.Safe || full.Concurrency == nil || full.Concurrency.Scope == report.ScopeProved {
		t.Fatalf("without a limit: %s (%s), want SAFE by the search", full.Verdict, full.Reason)
	}
	cfg.MaxQueries = full.SMTQueries / 4
	cut := run(cfg)
	if cut.Verdict != report.Unknown || refine.LimitOf(cut.Reason) != refine.LimitWork || !strings.Contains(cut.Reason, "--max-queries") {
		t.Fatalf("with --max-queries %d of %d: %s %q, want UNKNOWN at the query limit", cfg.MaxQueries, full.SMTQueries, cut.Verdict, cut.Reason)
	}
	// An engine run stops at its limit between two steps: a step's
	// queries past it are allowed.
	if cut.SMTQueries > cfg.MaxQueries+cfg.MaxQueries/2 {
		t.Errorf("with --max-queries %d: %d queries", cfg.MaxQueries, cut.SMTQueries)
	}
	t.Logf("%d queries without a limit; with %d: %d, %q", full.SMTQueries, cfg.MaxQueries, cut.SMTQueries, cut.Reason)
}
