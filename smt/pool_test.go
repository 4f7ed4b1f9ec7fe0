package smt

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestPoolReusesClearedSolver: a solver given back to a pool is lent
// again (its Z3 context kept) with nothing of its previous user — no
// assertion, no cached answer, no statistics, no resource limit — and a
// solver with another time limit is not taken for it.
func TestPoolReusesClearedSolver(t *testing.T) {
	var p Pool
	defer p.Close()
	s, err := p.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := s.ctx
	if err := s.SetRLimit(1000); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(bin(ir.OpGt, x, n(3))); err != nil { // outside every scope
		t.Fatal(err)
	}
	s.Push()
	if err := s.Assert(bin(ir.OpLt, y, n(0))); err != nil { // a scope left open
		t.Fatal(err)
	}
	if res, err := s.Sat(bin(ir.OpGt, z, n(1))); err != nil || res != Sat {
		t.Fatalf("z > 1: %s %v", res, err)
	}
	p.Put(s)

	other, err := p.Get(5000)
	if err != nil {
		t.Fatal(err)
	}
	if other == s {
		t.Fatal("a solver with no time limit was lent for one with 5000 ms")
	}
	p.Put(other)

	s2, err := p.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	if s2 != s || s2.ctx != ctx {
		t.Fatal("the idle solver was not lent again")
	}
	if st := s2.Stats(); st != (Stats{}) {
		t.Errorf("statistics of the previous user kept: %+v", st)
	}
	if s2.RLimit() != 0 {
		t.Errorf("resource limit %d kept, want none", s2.RLimit())
	}
	if err := s2.Assert(bin(ir.OpLt, x, n(3))); err != nil {
		t.Fatal(err)
	}
	if err := s2.Assert(bin(ir.OpGt, y, n(0))); err != nil {
		t.Fatal(err)
	}
	if res, err := s2.Check(); err != nil || res != Sat {
		t.Fatalf("x < 3 and y > 0 on the lent solver: %s %v, want sat (the previous assertions dropped)", res, err)
	}
	if res, err := s2.Sat(bin(ir.OpGt, z, n(1))); err != nil || res != Sat {
		t.Fatalf("z > 1: %s %v", res, err)
	}
	if st := s2.Stats(); st.CacheHits != 0 {
		t.Errorf("z > 1 answered from the previous user's cache (%d hits)", st.CacheHits)
	}
	p.Put(s2)
}

// TestPoolClosesUnusableSolver: an interrupted solver given back is
// closed, not lent again; after Close every solver given back is closed.
func TestPoolClosesUnusableSolver(t *testing.T) {
	var p Pool
	s, err := p.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Interrupt()
	p.Put(s)
	s2, err := p.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	if s2 == s {
		t.Fatal("an interrupted solver was lent again")
	}
	if err := s.Reset(); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("the interrupted solver given back: Reset = %v, want it closed", err)
	}
	p.Close()
	p.Put(s2)
	if err := s2.Reset(); err == nil {
		t.Error("a solver given back after Close was not closed")
	}
}
