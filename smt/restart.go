package smt

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aclements/go-z3/z3"
)

// Restarts. Z3's running time on one formula is heavy-tailed: a large
// block of the two-request search of a checkout (a product of two inputs
// in it) answers in 0.1-0.7 s under most random seeds of the SMT core and
// runs for minutes under others, and which seed a run meets in effect
// depends on the order the formula was built in. The resource limit does
// not stop such a check (Z3's nonlinear reasoning hardly counts
// resources), so without a time limit the whole run hung, one run in four.
//
// A check therefore runs as a ladder of attempts, the standard answer to
// heavy-tailed search: attempt i uses random seed i and a time limit of
// restartFirstMS·2^i; an attempt that runs out of time (not out of
// resources: that answer is the deterministic one) restarts with the next
// seed, on a fresh solver. A sat or unsat answer does not depend on the attempt that gave it;
// only a check none of whose restartAttempts attempts answers is Unknown
// (ReasonTimeout, after about a minute in all). A time limit given to
// NewSolver replaces the ladder: one attempt, bounded by it.
const (
	restartFirstMS  = 2000
	restartAttempts = 5
)

// attemptMS returns the time limit of the given attempt of a check.
func (s *Solver) attemptMS(attempt int) int {
	if s.timeoutMS > 0 {
		return s.timeoutMS
	}
	return s.firstMS << attempt
}

// check runs one check of z, whose assertions are formulas, restarting it
// while an attempt runs out of time, and accounts for it; it returns the
// answer and the Z3 solver that gave it (z or a fresh one), whose model
// is the check's. A restart runs
// on a fresh Z3 solver holding formulas: besides the seed, it leaves
// behind the state the timed-out search built in z (attempts on z itself
// kept timing out). The fresh solver runs Z3's incremental engine, as
// main does: the tactics of a non-incremental check preprocess more but
// do not all stop at the time limit (factoring a semiprime did not).
func (s *Solver) check(z *z3.Solver, formulas []z3.Bool) (Result, *z3.Solver) {
	answered := z
	res, reason, used, elapsed := s.attempt(z, 0)
	total := elapsed
	a := 0
	for res == Unknown && s.restartable(used, elapsed, a) {
		a++
		fresh := z3.NewSolver(s.ctx)
		if s.setLimits(fresh, a) != nil {
			break
		}
		fresh.Push() // Z3's incremental engine, as main's (its tactics may not stop in time)
		for _, f := range formulas {
			fresh.Assert(f)
		}
		s.stats.Restarts++
		answered = fresh
		res, reason, used, elapsed = s.attempt(fresh, a)
		total += elapsed
	}
	if res != Unknown {
		return res, answered
	}
	s.reason = s.classify(reason, used, elapsed)
	if a > 0 && elapsed >= time.Duration(s.attemptMS(a))*time.Millisecond {
		s.reason = fmt.Sprintf("%s: no answer in %d attempts with different random seeds (%.0f s in all; %s)",
			ReasonTimeout, a+1, total.Seconds(), reason)
	}
	if strings.HasPrefix(s.reason, ReasonTimeout) {
		s.stats.TimedOut++
	}
	return Unknown, answered
}

// restartable reports whether an Unknown answer of the given attempt,
// which used so many resource units and ran so long, calls for the next
// attempt: it ran out of its time limit, not of resources, the ladder has
// attempts left and the solver was not interrupted.
func (s *Solver) restartable(used uint64, elapsed time.Duration, attempt int) bool {
	if s.timeoutMS > 0 || attempt+1 >= restartAttempts || s.interrupted.Load() {
		return false
	}
	if s.rlimit > 0 && used >= uint64(s.rlimit) {
		return false
	}
	return elapsed >= time.Duration(s.attemptMS(attempt))*time.Millisecond
}

// attempt runs one Z3 check of z, the given attempt of its check, and
// accounts for it: its answer, Z3's reason for an unknown one, the
// resource units it used (0 if unknown) and its duration.
func (s *Solver) attempt(z *z3.Solver, attempt int) (res Result, reason string, used uint64, elapsed time.Duration) {
	before, counted := s.rlimitCount(z)
	start := time.Now()
	stop := s.watch(time.Duration(s.attemptMS(attempt)) * time.Millisecond)
	sat, err := z.Check()
	if stop() {
		s.stats.Watchdog++
	}
	elapsed = time.Since(start)
	s.stats.Seconds += elapsed.Seconds()
	s.stats.Queries++
	if counted {
		if after, ok := s.rlimitCount(z); ok && after >= before {
			used = after - before
			s.stats.RLimitUnits += used
			s.stats.MaxCheckRLimit = max(s.stats.MaxCheckRLimit, used)
		}
	}
	switch {
	case err != nil:
		var u *z3.ErrSatUnknown
		if errors.As(err, &u) {
			return Unknown, u.Reason, used, elapsed
		}
		return Unknown, err.Error(), used, elapsed
	case sat:
		return Sat, "", used, elapsed
	}
	return Unsat, "", used, elapsed
}

// The watchdog. Z3 4.8's own timer (scoped_timer, a thread pool) now and
// then misses its deadline: a check with a 1 ms limit factoring a
// semiprime ran for 40 minutes in one CI run, until the test binary's
// timeout killed it — a run of the tool would have hung the same way.
// Every attempt therefore also has a deadline of its own in Go, past
// Z3's (the limit again, at least watchGraceMin), at which the watchdog
// interrupts the context; the cancelled check answers Unknown and is
// classified as out of time like one Z3's timer stopped.
const watchGraceMin = time.Second

// watch starts the watchdog of a check whose time limit is limit (0:
// none, no watchdog) and returns the function that stops it once the
// check returned. The watchdog interrupts the context only while the
// check runs: stop and the interruption exclude each other, so a late
// watchdog never cancels a later check.
func (s *Solver) watch(limit time.Duration) (stop func() (fired bool)) {
	if limit <= 0 {
		return func() bool { return false }
	}
	s.watchMu.Lock()
	s.checking, s.watchFired = true, false
	s.watchMu.Unlock()
	t := time.AfterFunc(limit+max(limit, watchGraceMin), func() {
		s.watchMu.Lock()
		defer s.watchMu.Unlock()
		if !s.checking {
			return
		}
		if ctx := s.intr.Load(); ctx != nil {
			s.watchFired = true
			ctx.Interrupt()
		}
	})
	return func() bool {
		t.Stop()
		s.watchMu.Lock()
		defer s.watchMu.Unlock()
		s.checking = false
		return s.watchFired
	}
}
