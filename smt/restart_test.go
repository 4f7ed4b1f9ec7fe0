package smt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/ir"
)

// TestRestartLadder: a check that no attempt decides in time restarts with
// the next seed and a doubled time limit, restartAttempts attempts in all,
// then answers Unknown with a reason that names the wall clock and the
// attempts; the solver stays usable, its next check back at the first
// attempt's limits.
func TestRestartLadder(t *testing.T) {
	s, err := newSolverFirst(0, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	start := time.Now()
	res, err := s.Sat(hard())
	if err != nil {
		t.Fatal(err)
	}
	if res != Unknown {
		t.Skipf("Z3 factored the semiprime within the ladder's %d ms: %s", 20*(1<<restartAttempts-1), res)
	}
	if got := s.Stats().Restarts; got != restartAttempts-1 {
		t.Errorf("Restarts = %d, want %d", got, restartAttempts-1)
	}
	if el := time.Since(start); el < time.Duration(20*(1<<restartAttempts-1))*time.Millisecond {
		t.Errorf("the ladder took %s, less than its attempts' limits together", el)
	}
	r := s.ReasonUnknown()
	if !strings.HasPrefix(r, ReasonTimeout) || !strings.Contains(r, fmt.Sprintf("%d attempts", restartAttempts)) {
		t.Errorf("reason %q, want %q and the attempts", r, ReasonTimeout)
	}
	// The clock decided this answer, and decides it again from the
	// cache: TimedOut counts both (the result cache keeps nothing a
	// clock decided).
	if got := s.Stats().TimedOut; got != 1 {
		t.Errorf("TimedOut = %d after the ladder, want 1", got)
	}
	if res, err := s.Sat(hard()); err != nil || res != Unknown || s.Stats().TimedOut != 2 {
		t.Errorf("the same check again: %s %v, TimedOut %d; want Unknown from the cache, TimedOut 2", res, err, s.Stats().TimedOut)
	}
	if res, err := s.Sat(bin(ir.OpGt, x, n(3))); err != nil || res != Sat {
		t.Fatalf("next check: %s %v, want sat", res, err)
	}
	if got := s.Stats().TimedOut; got != 2 {
		t.Errorf("TimedOut = %d after a check that answered, want 2", got)
	}
}

// TestModelAfterSat: a standalone Sat between a Sat Check and Model does
// not change whose model Model reads (the caller's, not Sat's private
// solver's).
func TestModelAfterSat(t *testing.T) {
	s := newSolver(t, 0)
	if err := s.Assert(bin(ir.OpEq, x, n(5))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("Check = %s %v, want sat", res, err)
	}
	if res, err := s.Sat(bin(ir.OpEq, x, n(-7))); err != nil || res != Sat {
		t.Fatalf("Sat = %s %v, want sat", res, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Value(x); v.String() != "5" {
		t.Fatalf("x = %s in the model of the Check, want 5", v)
	}
}

// TestWatchdog: a check Z3's timer does not stop (here: switched off) is
// interrupted by the watchdog past its time limit, answers Unknown out of
// time, and leaves the solver usable.
func TestWatchdog(t *testing.T) {
	s := newSolver(t, 100)
	s.z3TimerOff = true
	if err := s.setLimits(s.aux, 0); err != nil {
		t.Fatal(err)
	}
	done := make(chan Result, 1)
	start := time.Now()
	go func() {
		res, err := s.Sat(hard())
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res == Unsat {
			t.Fatal("factoring a semiprime: unsat")
		}
		if res == Sat {
			t.Fatal("Z3 factored the semiprime before the watchdog: the test needs a harder formula")
		}
	case <-time.After(60 * time.Second):
		s.Interrupt()
		<-done
		t.Fatalf("the watchdog did not stop a check with a 100 ms limit in %v", time.Since(start))
	}
	if st := s.Stats(); st.Watchdog != 1 || st.TimedOut != 1 {
		t.Fatalf("stats %+v: want one check stopped by the watchdog, out of time", st)
	}
	if r := s.ReasonUnknown(); !strings.HasPrefix(r, ReasonTimeout) {
		t.Fatalf("reason %q, want %q", r, ReasonTimeout)
	}
	if res, err := s.Sat(bin(ir.OpGt, x, n(3))); err != nil || res != Sat {
		t.Fatalf("after the watchdog: %s %v", res, err)
	}
	t.Logf("stopped after %v", time.Since(start))
}
