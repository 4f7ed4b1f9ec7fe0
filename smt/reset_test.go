package smt

import (
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestResetBaseAssertion: Reset drops a formula asserted outside every
// scope, and a solver whose scopes were all closed is clear without one.
func TestResetBaseAssertion(t *testing.T) {
	s := newSolver(t, 0)
	if err := s.Assert(ir.False); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Unsat {
		t.Fatalf("false asserted: %s %v", res, err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(bin(ir.OpGt, x, n(3))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("after Reset, x > 3: %s %v, want sat (the base assertion dropped)", res, err)
	}
	s.Pop()
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(bin(ir.OpLt, x, n(3))); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Check(); err != nil || res != Sat {
		t.Fatalf("after a cheap Reset, x < 3: %s %v, want sat (x > 3 was popped)", res, err)
	}
	s.Pop()
}
