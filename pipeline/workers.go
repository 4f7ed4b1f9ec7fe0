package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
)

// runJobs decides the jobs on cfg.Workers workers, each with one solver
// reset between jobs, and returns their results in the jobs' order. With
// --concurrent, a job's peers are taken from all (every job of the run).
// Once ctx is cancelled the remaining jobs are UNKNOWN (cancelled); cut
// says whether ctx ended before a job was done (its result may be one of
// those).
func runJobs(ctx context.Context, cfg Config, in *inputs, jobs, all []job) (results []*report.Result, cut bool, err error) {
	results = make([]*report.Result, len(jobs))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(jobs))
	var (
		mu   sync.Mutex
		done int
		werr error
		wg   sync.WaitGroup
	)
	next := make(chan int)
	finish := func(i int, r *report.Result) {
		mu.Lock()
		defer mu.Unlock()
		if r.Verdict == report.Unknown {
			r.Limit = refine.LimitOf(r.Reason)
		}
		results[i] = r
		cut = cut || ctx.Err() != nil
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, len(jobs), r)
		}
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solver, err := newSolver(cfg)
			if err != nil {
				mu.Lock()
				werr = err
				mu.Unlock()
				for range next {
				}
				return
			}
			defer releaseSolver(cfg, solver)
			for i := range next {
				if cfg.Started != nil {
					cfg.Started(jobs[i].entry, jobs[i].c.Label())
				}
				before := solver.Stats().Restarts
				r := runJob(ctx, cfg, in, jobs[i], solver)
				if cfg.Concurrent && ctx.Err() == nil {
					r = concurrentResult(ctx, r, jobs[i], peers(all, jobs[i]), withAssumed(in, jobs[i].assumed), solver, cfg)
				}
				r.SolverRestarts += solver.Stats().Restarts - before
				finish(i, r)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if werr != nil {
		return nil, false, werr
	}
	return results, cut, nil
}

// newSolver starts the solver of one worker (from cfg.Solvers when set),
// which releaseSolver ends.
func newSolver(cfg Config) (*smt.Solver, error) {
	var (
		solver *smt.Solver
		err    error
	)
	if cfg.Solvers != nil {
		solver, err = cfg.Solvers.Get(cfg.TimeoutMS)
	} else {
		solver, err = smt.NewSolver(cfg.TimeoutMS)
	}
	if err != nil {
		return nil, fmt.Errorf("starting Z3: %w", err)
	}
	if err := solver.SetRLimit(rlimitUnits(cfg.RLimit)); err != nil {
		solver.Close()
		return nil, fmt.Errorf("starting Z3: %w", err)
	}
	return solver, nil
}

// releaseSolver ends a solver newSolver started: back to cfg.Solvers, or
// closed.
func releaseSolver(cfg Config, solver *smt.Solver) {
	if cfg.Solvers != nil {
		cfg.Solvers.Put(solver)
		return
	}
	solver.Close()
}

// runJob decides one job on a solver cleared of the previous job's
// assertions. After a cancellation the solver is finished (interrupted):
// the job is UNKNOWN without asking it.
func runJob(ctx context.Context, cfg Config, in *inputs, j job, solver *smt.Solver) *report.Result {
	var r *report.Result
	if err := ctx.Err(); err != nil {
		reason := refine.ReasonCancelled
		if errors.Is(err, context.DeadlineExceeded) {
			reason = refine.ReasonDeadline
		}
		r = &report.Result{Entry: j.entry, Constraint: j.c.Label(), Verdict: report.Unknown, Reason: reason, Predicates: []string{}}
	} else if err := solver.Reset(); err != nil {
		r = &report.Result{Entry: j.entry, Constraint: j.c.Label(), Verdict: report.Unknown, Reason: "internal: " + err.Error(), Predicates: []string{}}
	} else {
		r = decideJob(ctx, cfg, withAssumed(in, j.assumed), j, solver)
	}
	r.EntryPosition = j.pos
	return r
}

// decideJob decides j: first on its plain programs, when it has them (a
// SAFE there holds for the programs that follow an element of collected
// slices, whose reads they over-approximate, and an UNSAFE there is real,
// as no approximation reaches one), then, if that is UNKNOWN, on its own.
// The result counts the SMT queries and time of both.
func decideJob(ctx context.Context, cfg Config, in *inputs, j job, solver *smt.Solver) *report.Result {
	if j.plain == nil {
		return decidePrograms(ctx, cfg, in, j, solver)
	}
	plain := j
	plain.prog, plain.rounded, plain.wrapped, plain.plain = j.plain.prog, j.plain.rounded, j.plain.wrapped, nil
	first := decidePrograms(ctx, cfg, in, plain, solver)
	if first.Verdict != report.Unknown || ctx.Err() != nil {
		return first
	}
	if err := solver.Reset(); err != nil {
		return first
	}
	r := decidePrograms(ctx, cfg, in, j, solver)
	r.SMTQueries += first.SMTQueries
	r.Seconds += first.Seconds
	return r
}

// decidePrograms decides j on its programs: prog, and where prog is SAFE,
// wrapped and rounded.
func decidePrograms(ctx context.Context, cfg Config, in *inputs, j job, solver *smt.Solver) *report.Result {
	r := verify(ctx, j.entry, j.prog, j.c, in, solver, cfg)
	if r.Verdict == report.Safe && j.wrapped != nil {
		r = wrappedCheck(ctx, r, j, in, solver, cfg)
	}
	if r.Verdict == report.Safe && j.rounded != nil {
		r = roundedCheck(ctx, r, j, in, solver, cfg)
	}
	return r
}

// withAssumed returns in with the facts assumed added (in itself when
// there are none).
func withAssumed(in *inputs, assumed []*spec.TableFact) *inputs {
	if len(assumed) == 0 {
		return in
	}
	out := *in
	out.facts = slices.Clone(in.facts)
	for _, f := range assumed {
		out.facts = append(out.facts, f)
	}
	return &out
}
