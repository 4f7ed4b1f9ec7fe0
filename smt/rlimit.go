package smt

/*
#cgo LDFLAGS: -lz3
#include <stdbool.h>
#include <string.h>
#include <z3.h>

// set_limits sets the solver parameters of s that bound and steer each
// check: rlimit, at most units of Z3's resource counter (0: no bound; Z3
// counts resources deterministically, steps of its procedures, not time,
// so a check that runs out answers unknown on every machine alike);
// timeout in milliseconds (0: none); the random seed of the SMT core; and
// ctrl_c=false (see ctrlc.go).
static void set_limits(Z3_context c, Z3_solver s, unsigned units, unsigned timeout_ms, unsigned seed) {
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), units);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms ? timeout_ms : 4294967295u);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "random_seed"), seed);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
}

// rlimit_count returns the context's resource counter ("rlimit count" in
// the statistics of s), cumulative over every check of the context.
static unsigned long long rlimit_count(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	Z3_stats_inc_ref(c, st);
	unsigned long long n = 0;
	unsigned size = Z3_stats_size(c, st);
	for (unsigned i = 0; i < size; i++) {
		if (strcmp(Z3_stats_get_key(c, st, i), "rlimit count") == 0) {
			if (Z3_stats_is_uint(c, st, i)) {
				n = Z3_stats_get_uint_value(c, st, i);
			} else {
				n = (unsigned long long)Z3_stats_get_double_value(c, st, i);
			}
			break;
		}
	}
	Z3_stats_dec_ref(c, st);
	return n;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/aclements/go-z3/z3"
)

// DefaultRLimit is the resource limit of one check (Z3's deterministic
// rlimit units). Calibration (Z3 4.8.12, benchmarks/gen and the corpus):
// the most expensive check of the whole corpus spends 54,170 units (185
// times less); the one formula of a Sequential program needs 5-10 million
// units at N = 96 (decided) and 10-20 million at N = 128 (so it is
// UNKNOWN, "work limit reached", on every machine); a hard linear check
// spends about 0.6-1.5 million units a second on this 2-core machine, so
// the limit stops it after 7-16 s, near the 10 s wall-clock timeout,
// which stays as the safety net. Nonlinear arithmetic (nlsat) hardly
// counts resources: there the wall clock is what stops a check.
const DefaultRLimit = 10_000_000

// rawHandles returns the raw Z3 context and solver under go-z3's
// wrappers, and the context's lock (see ctrlc.go for why and how).
func rawHandles(ctx *z3.Context, z *z3.Solver) (C.Z3_context, C.Z3_solver, *sync.Mutex, error) {
	l := layout()
	if !l.ok {
		return nil, nil, nil, errLayout
	}
	cp := unsafe.Pointer(ctx)
	implPtr := *(*unsafe.Pointer)(unsafe.Add(cp, l.ctxImpl))
	rawCtx := *(*C.Z3_context)(unsafe.Add(implPtr, l.ctxC))
	simpl := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(z), l.solverImpl))
	rawSolver := *(*C.Z3_solver)(unsafe.Add(simpl, l.solverC))
	if rawCtx == nil || rawSolver == nil {
		return nil, nil, nil, errLayout
	}
	return rawCtx, rawSolver, (*sync.Mutex)(unsafe.Add(cp, l.ctxLock)), nil
}

// SetRLimit bounds every later check of s (Check, Sat, Valid) by units of
// Z3's deterministic resource counter; 0 removes the bound. A check that
// runs out answers Unknown, and ReasonUnknown names the work limit
// (ReasonWorkLimit), unlike the wall-clock limits (NewSolver's timeout,
// the restarts' ladder: ReasonTimeout). Unknown answers cached under
// another limit are dropped.
func (s *Solver) SetRLimit(units uint) error {
	if err := s.usable("set rlimit"); err != nil {
		return err
	}
	if units > 1<<32-1 {
		return fmt.Errorf("smt: set rlimit: %d units exceed Z3's 32-bit limit", units)
	}
	old := s.rlimit
	s.rlimit = units
	for _, z := range []*z3.Solver{s.main, s.aux} {
		if err := s.setLimits(z, 0); err != nil {
			s.rlimit = old
			return fmt.Errorf("smt: set rlimit: %w", err)
		}
	}
	for k, c := range s.cache {
		if c.res == Unknown {
			delete(s.cache, k)
		}
	}
	return nil
}

// setLimits sets the parameters of z for the given attempt of a check
// (see restart.go): the resource limit, the attempt's time limit and its
// random seed. It costs about a millisecond (Z3 rebuilds the solver's
// parameters): main and aux keep the first attempt's, a restart sets its
// own on its fresh solver.
func (s *Solver) setLimits(z *z3.Solver, attempt int) error {
	c, zs, mu, err := rawHandles(s.ctx, z)
	if err != nil {
		return err
	}
	err = guard("set limits", func() error {
		mu.Lock()
		defer mu.Unlock()
		ms := s.attemptMS(attempt)
		if s.z3TimerOff {
			ms = 0
		}
		C.set_limits(c, zs, C.unsigned(s.rlimit), C.unsigned(ms), C.unsigned(attempt))
		return nil
	})
	runtime.KeepAlive(z)
	return err
}

// RLimit returns the resource limit per check (0: none).
func (s *Solver) RLimit() uint { return s.rlimit }

// rlimitCount reads the context's cumulative resource counter through
// solver z; ok is false if it cannot be read.
func (s *Solver) rlimitCount(z *z3.Solver) (n uint64, ok bool) {
	c, zs, mu, err := rawHandles(s.ctx, z)
	if err != nil {
		return 0, false
	}
	mu.Lock()
	defer mu.Unlock()
	n = uint64(C.rlimit_count(c, zs))
	runtime.KeepAlive(z)
	return n, true
}

// Prefixes of ReasonUnknown for the two limits of a check.
const (
	// ReasonWorkLimit starts the reason of a check stopped by the
	// deterministic resource limit (SetRLimit): the same on every machine.
	ReasonWorkLimit = "work limit reached"
	// ReasonTimeout starts the reason of a check stopped by the wall-clock
	// timeout of NewSolver: the safety net, which depends on the machine.
	ReasonTimeout = "wall-clock timeout reached"
)

// classify rewrites Z3's reason for an unknown answer when one of the
// solver's limits stopped the check: used resource units (0 if unknown)
// and elapsed time tell which. The resource limit is checked first: it is
// the one that makes the answer reproducible.
func (s *Solver) classify(reason string, used uint64, elapsed time.Duration) string {
	if s.rlimit > 0 && used >= uint64(s.rlimit) {
		return fmt.Sprintf("%s: the check used its %d Z3 resource units (%s)", ReasonWorkLimit, s.rlimit, reason)
	}
	if s.timeoutMS > 0 && elapsed >= time.Duration(s.timeoutMS)*time.Millisecond {
		return fmt.Sprintf("%s: the check ran %d ms (%s)", ReasonTimeout, s.timeoutMS, reason)
	}
	return reason
}
