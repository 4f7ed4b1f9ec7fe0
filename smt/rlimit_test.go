package smt

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestRLimit: a resource limit stops a check deterministically (the same
// units, whatever the time), and the reason names the work limit, not the
// clock; an easy check fits under the default limit.
func TestRLimit(t *testing.T) {
	s := newSolver(t, 0) // no wall clock at all: only the work limit can stop it
	if err := s.SetRLimit(1000); err != nil {
		t.Fatal(err)
	}
	res, err := s.Sat(hard())
	if err != nil {
		t.Fatal(err)
	}
	if res != Unknown {
		t.Fatalf("factoring a semiprime under 1000 units: %s, want unknown", res)
	}
	if r := s.ReasonUnknown(); !strings.HasPrefix(r, ReasonWorkLimit) {
		t.Fatalf("reason %q, want it to start with %q", r, ReasonWorkLimit)
	}
	st := s.Stats()
	if st.MaxCheckRLimit < 1000 {
		t.Fatalf("MaxCheckRLimit = %d, want >= the limit 1000", st.MaxCheckRLimit)
	}

	// The same check on a fresh solver spends the same units.
	s2 := newSolver(t, 0)
	if err := s2.SetRLimit(1000); err != nil {
		t.Fatal(err)
	}
	if res, err := s2.Sat(hard()); err != nil || res != Unknown {
		t.Fatalf("second run: %s %v", res, err)
	}
	if a, b := st.RLimitUnits, s2.Stats().RLimitUnits; a != b {
		t.Errorf("resource units differ between two identical runs: %d vs %d", a, b)
	}

	easy := newSolver(t, 0)
	if err := easy.SetRLimit(DefaultRLimit); err != nil {
		t.Fatal(err)
	}
	f := and(bin(ir.OpGt, x, y), bin(ir.OpGt, y, z), bin(ir.OpGt, z, x))
	if res, err := easy.Sat(f); err != nil || res != Unsat {
		t.Fatalf("x > y > z > x: %s %v, want unsat", res, err)
	}
	if u := easy.Stats().RLimitUnits; u == 0 || u >= DefaultRLimit {
		t.Errorf("easy check used %d units, want 0 < units < %d", u, DefaultRLimit)
	}
}

// TestRLimitIncremental: the limit applies to Check as well, per check.
func TestRLimitIncremental(t *testing.T) {
	s := newSolver(t, 0)
	if err := s.SetRLimit(1000); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(hard()); err != nil {
		t.Fatal(err)
	}
	res, err := s.Check()
	if err != nil || res != Unknown {
		t.Fatalf("Check: %s %v, want unknown", res, err)
	}
	if r := s.ReasonUnknown(); !strings.HasPrefix(r, ReasonWorkLimit) {
		t.Fatalf("reason %q, want %q", r, ReasonWorkLimit)
	}
	s.Pop()
	// A later easy check gets a fresh budget.
	s.Push()
	if err := s.Assert(bin(ir.OpGt, x, n(3))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("x > 3 after an exhausted check: %s %v, want sat", res, err)
	}
	s.Pop()
}
