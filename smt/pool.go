package smt

import (
	"fmt"
	"sync"
)

// Pool keeps solvers for the runs of one process that decide one after
// another (the corpus tests, a batch of modules): a Solver's Z3 context
// costs about 20 ms of CPU to create, and Close two collections of the
// whole Go heap to give its memory back, which such a process would pay
// per run and worker. A solver taken from a pool has none of its previous
// user's assertions, cached answers or statistics; the Z3 context (its
// terms) is what it keeps.
//
// The zero Pool is ready to use; it is safe for concurrent use.
type Pool struct {
	mu     sync.Mutex
	idle   []*Solver
	closed bool
}

// Get returns an idle solver of the pool with the given time limit per
// check (see NewSolver), cleared, or a new one. Give it back with Put.
func (p *Pool) Get(timeoutMS int) (*Solver, error) {
	p.mu.Lock()
	for i := len(p.idle) - 1; i >= 0 && !p.closed; i-- {
		s := p.idle[i]
		if s.timeoutMS != timeoutMS {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.mu.Unlock()
		if err := s.clear(); err != nil {
			s.Close()
			return nil, fmt.Errorf("smt: pool: %w", err)
		}
		return s, nil
	}
	p.mu.Unlock()
	return NewSolver(timeoutMS)
}

// Put gives s back to the pool. A solver that cannot be used again
// (closed, interrupted, poisoned by a failed Push or Pop) is closed
// instead, as is every solver given back after Close.
func (p *Pool) Put(s *Solver) {
	if s == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || s.closed || s.interrupted.Load() || s.err != nil {
		s.Close()
		return
	}
	p.idle = append(p.idle, s)
}

// Close closes the idle solvers; solvers given back later are closed too.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, s := range idle {
		s.Close()
	}
}

// clear makes s as a new solver with its time limits: no assertions,
// cached answers, constants, statistics or resource limit.
func (s *Solver) clear() error {
	if err := s.Reset(); err != nil {
		return err
	}
	if err := guard("clear", func() error {
		s.aux.Reset()
		return nil
	}); err != nil {
		s.err = err
		return err
	}
	if s.rlimit != 0 {
		if err := s.SetRLimit(0); err != nil {
			return err
		}
	}
	clear(s.consts)
	clear(s.cache)
	s.stats = Stats{}
	s.reason = ""
	s.answered = nil
	return nil
}
