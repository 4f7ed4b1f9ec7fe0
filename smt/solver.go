package smt

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aclements/go-z3/z3"
	"github.com/dbverify/dbverify/ir"
)

// Solver is one Z3 context and one incremental solver. It is not safe for
// concurrent use: keep one per worker goroutine. (Interrupt is the one
// method that may be called from another goroutine.)
//
// Besides the caller's incremental solver (Push, Pop, Assert, Check, Model)
// it holds a second Z3 solver on the same context for Sat and Valid, so
// those standalone queries ignore the caller's assertions and may be asked
// at any time, even with scopes open.
//
// A Z3 context costs a few milliseconds and about 17 MB to create: make one Solver per
// worker and reuse it (Reset drops the assertions but keeps the cache).
type Solver struct {
	ctx                      *z3.Context
	main                     *z3.Solver // the caller's incremental solver
	aux                      *z3.Solver // Sat and Valid, always empty between queries
	intSort, realSort, bSort z3.Sort
	consts                   map[varKey]z3.Value
	cache                    map[string]cached
	timeoutMS                int
	firstMS                  int  // time limit of a check's first attempt (restart.go)
	rlimit                   uint // per check, Z3 resource units; 0: none
	closed                   bool
	err                      error // sticky: a failed Push or Pop poisons the solver
	reason                   string
	stats                    Stats

	// Variables asserted into main, in order of first use, with the
	// length of live at each open Push. Model evaluates all of them.
	live    []varKey
	liveSet map[varKey]bool
	marks   []mark
	// The formulas asserted into main, in order: a restarted check
	// (restart.go) asserts them into a fresh solver.
	formulas []z3.Bool
	// answered is the Z3 solver whose answer the last Check gave: main,
	// or the fresh solver of a restarted check (Model reads its model).
	answered *z3.Solver
	modelOK  bool // the last Check said Sat and nothing changed since
	// based: a formula was asserted outside every scope since the last
	// Reset, so the next Reset must clear Z3's solver.
	based bool

	sigintOff   bool                       // Z3's SIGINT handler is disabled on both solvers
	interrupted atomic.Bool                // Interrupt was called
	intr        atomic.Pointer[z3.Context] // the context, for Interrupt; nil once closed

	// The watchdog of the running check (restart.go): checking while a
	// check runs, watchFired once the watchdog interrupted it.
	watchMu    sync.Mutex
	checking   bool
	watchFired bool
	// z3TimerOff leaves Z3's own timer out of the limits setLimits sets,
	// so that only the watchdog bounds a check (for its test).
	z3TimerOff bool
}

// NewSolver returns a solver; timeoutMS bounds each check, which answers
// Unknown when it runs out of time. With 0, a check runs as a ladder of
// attempts with time limits and seeds of their own (restart.go).
func NewSolver(timeoutMS int) (s *Solver, err error) {
	return newSolverFirst(timeoutMS, restartFirstMS)
}

// newSolverFirst is NewSolver with the time limit of the first attempt of a
// check without timeoutMS (restart.go).
func newSolverFirst(timeoutMS, firstMS int) (s *Solver, err error) {
	if timeoutMS < 0 {
		return nil, fmt.Errorf("smt: new solver: negative timeout %d ms", timeoutMS)
	}
	s = &Solver{
		timeoutMS: timeoutMS,
		firstMS:   firstMS,
		consts:    make(map[varKey]z3.Value),
		cache:     make(map[string]cached),
		liveSet:   make(map[varKey]bool),
	}
	err = guard("new solver", func() error {
		cfg := z3.NewContextConfig()
		// The first attempt's time limit (restart.go) is the context's
		// default: no solver parameter to set (a millisecond) per solver.
		cfg.SetUint("timeout", uint(s.attemptMS(0)))
		cfg.SetBool("model", true)
		s.ctx = z3.NewContext(cfg)
		s.intSort = s.ctx.IntSort()
		s.realSort = s.ctx.RealSort()
		s.bSort = s.ctx.BoolSort()
		s.main = z3.NewSolver(s.ctx)
		s.aux = z3.NewSolver(s.ctx)
		// Z3 builds a solver's incremental engine on its first Push
		// (milliseconds): build both now, with the context, rather than
		// in the first query of the first job.
		for _, z := range []*z3.Solver{s.main, s.aux} {
			z.Push()
			z.Pop()
		}
		// Leave SIGINT to the Go program (see ctrlc.go). Should go-z3's
		// layout be unrecognisable, Z3 keeps its default handling.
		s.sigintOff = disableCtrlC(s.ctx, s.main) == nil && disableCtrlC(s.ctx, s.aux) == nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.intr.Store(s.ctx)
	return s, nil
}

// guard runs f and turns a panic (go-z3 panics on every Z3 error) into an
// error wrapping ErrPanic.
func guard(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("smt: %s: %w: %v", what, ErrPanic, r)
		}
	}()
	return f()
}

// usable reports why s cannot take a request, if it cannot.
func (s *Solver) usable(what string) error {
	if s == nil || s.closed {
		return fmt.Errorf("smt: %s: %w", what, ErrClosed)
	}
	if s.interrupted.Load() {
		return fmt.Errorf("smt: %s: %w", what, ErrInterrupted)
	}
	if s.err != nil {
		return fmt.Errorf("smt: %s: solver unusable after earlier failure: %w", what, s.err)
	}
	return nil
}

// Close releases the Z3 context. go-z3 frees a context only when the
// garbage collector finalizes it, so Close drops every reference and runs
// the collector (a few milliseconds) to have the memory back promptly.
// Every later call fails with ErrClosed (Push and Pop do nothing); Stats
// still works. Close is idempotent.
func (s *Solver) Close() {
	if s == nil || s.closed {
		return
	}
	s.intr.Store(nil)
	_ = guard("close", func() error {
		s.main.Reset()
		s.aux.Reset()
		return nil
	})
	s.closed = true
	s.main, s.aux, s.ctx = nil, nil, nil
	s.intSort, s.realSort, s.bSort = z3.Sort{}, z3.Sort{}, z3.Sort{}
	s.consts, s.cache, s.live, s.liveSet, s.marks = nil, nil, nil, nil, nil
	s.modelOK = false
	// The first cycle finalizes the terms and solvers, which refer to the
	// context; the second the context itself.
	runtime.GC()
	runtime.GC()
}

// Interrupt cancels the check running on s, if any, and marks s finished:
// the interrupted call and every later one (except Stats and Close) fail
// with ErrInterrupted. It is meant for shutting down (say on SIGINT, which
// this package leaves to the Go program) and, unlike every other method,
// may be called from any goroutine.
func (s *Solver) Interrupt() {
	if s == nil {
		return
	}
	s.interrupted.Store(true)
	if ctx := s.intr.Load(); ctx != nil {
		ctx.Interrupt()
	}
}

// Reset pops every scope and drops every assertion of the incremental
// solver, and clears an earlier failure, keeping the Sat/Valid cache: the
// way to reuse one Solver for the next entry point. A solver with no
// scope open, no assertion outside a scope and no failure is already
// clear: Reset keeps Z3's solver then (recreating it, as Z3 does on a
// reset, costs milliseconds, more than a one-formula entry's check).
func (s *Solver) Reset() error {
	if s == nil || s.closed {
		return fmt.Errorf("smt: reset: %w", ErrClosed)
	}
	if s.interrupted.Load() {
		return fmt.Errorf("smt: reset: %w", ErrInterrupted)
	}
	s.modelOK = false
	if len(s.marks) == 0 && !s.based && s.err == nil {
		return nil
	}
	err := guard("reset", func() error {
		s.main.Reset()
		return nil
	})
	if err != nil {
		s.err = err
		return err
	}
	s.err, s.based = nil, false
	s.live, s.marks, s.formulas = s.live[:0], s.marks[:0], s.formulas[:0]
	clear(s.liveSet)
	return nil
}

// Push opens a scope. Push cannot report an error: a failure makes every
// later Assert, Check and Model return it (until Reset).
func (s *Solver) Push() {
	if s.usable("push") != nil {
		return
	}
	s.modelOK = false
	if err := guard("push", func() error { s.main.Push(); return nil }); err != nil {
		s.err = err
		return
	}
	s.marks = append(s.marks, mark{live: len(s.live), formulas: len(s.formulas)})
}

// mark is what an open Push remembers: the lengths of live and formulas.
type mark struct{ live, formulas int }

// Pop closes the innermost scope, dropping its assertions. A Pop without a
// matching Push makes every later Assert, Check and Model fail with
// ErrScope (until Reset).
func (s *Solver) Pop() {
	if s.usable("pop") != nil {
		return
	}
	s.modelOK = false
	if len(s.marks) == 0 {
		s.err = fmt.Errorf("smt: pop: %w", ErrScope)
		return
	}
	if err := guard("pop", func() error { s.main.Pop(); return nil }); err != nil {
		s.err = err
		return
	}
	m := s.marks[len(s.marks)-1]
	s.marks = s.marks[:len(s.marks)-1]
	for _, k := range s.live[m.live:] {
		delete(s.liveSet, k)
	}
	s.live, s.formulas = s.live[:m.live], s.formulas[:m.formulas]
}

// assertMain asserts f into main and records it for a restart.
func (s *Solver) assertMain(f z3.Bool) {
	s.main.Assert(f)
	s.formulas = append(s.formulas, f)
}

// Depth returns the number of open scopes.
func (s *Solver) Depth() int { return len(s.marks) }

// Assert adds e (a Bool expression) to the current scope. An ill-sorted or
// malformed e is an error (wrapping ErrSort) and asserts nothing.
func (s *Solver) Assert(e ir.Expr) error {
	if err := s.usable("assert"); err != nil {
		return err
	}
	s.modelOK = false
	t := s.newTranslator()
	err := guard("assert", func() error {
		f, err := t.formula(e)
		if err != nil {
			return fmt.Errorf("smt: assert: %w", err)
		}
		s.assertMain(f)
		return nil
	})
	if err != nil {
		return err
	}
	if len(s.marks) == 0 {
		s.based = true
	}
	for _, k := range t.vars {
		if !s.liveSet[k] {
			s.liveSet[k] = true
			s.live = append(s.live, k)
		}
	}
	return nil
}

// Check decides the conjunction of the asserted formulas. Unknown (timeout,
// incomplete theory) comes with a nil error; ReasonUnknown tells why.
func (s *Solver) Check() (Result, error) {
	if err := s.usable("check"); err != nil {
		return Unknown, err
	}
	s.modelOK = false
	var res Result
	err := guard("check", func() error {
		res, s.answered = s.check(s.main, s.formulas)
		return nil
	})
	if err == nil && s.interrupted.Load() {
		err = fmt.Errorf("smt: check: %w", ErrInterrupted)
	}
	if err != nil {
		return Unknown, err
	}
	s.modelOK = res == Sat
	return res, nil
}

// ReasonUnknown returns Z3's reason for the last Unknown answer of Check,
// Sat or Valid: "timeout", "canceled", "(incomplete (theory arithmetic))"
// (what Z3 reports for nonlinear arithmetic, timeouts included) and so on.
// Cached answers keep their reason.
func (s *Solver) ReasonUnknown() string { return s.reason }

// Model returns the model of the last Sat Check. It must be called before
// the next Push, Pop, Assert, Check or Reset (ErrNoModel otherwise). The
// Model holds the values of every variable of the formulas asserted in the
// open scopes and stays valid for good.
func (s *Solver) Model() (*Model, error) {
	if err := s.usable("model"); err != nil {
		return nil, err
	}
	if !s.modelOK {
		return nil, fmt.Errorf("smt: model: %w: last Check was not Sat or the solver changed since", ErrNoModel)
	}
	return s.model(s.live)
}

// ModelOf is Model restricted to vars: the others are not extracted from
// Z3 (Value gives them the zero of their sort). A caller that reads a few
// variables of a model over many (the abstract post's selectors) saves an
// evaluation per variable it does not read. Each of vars must occur in
// what is asserted.
func (s *Solver) ModelOf(vars ...*ir.Var) (*Model, error) {
	if err := s.usable("model"); err != nil {
		return nil, err
	}
	if !s.modelOK {
		return nil, fmt.Errorf("smt: model: %w: last Check was not Sat or the solver changed since", ErrNoModel)
	}
	keys := make([]varKey, 0, len(vars))
	for _, v := range vars {
		if v != nil && s.liveSet[keyOf(v)] {
			keys = append(keys, keyOf(v))
		}
	}
	return s.model(keys)
}

// model extracts the values of keys from Z3's model of the last Check.
func (s *Solver) model(keys []varKey) (*Model, error) {
	m := &Model{vals: make(map[varKey]ir.Value, len(keys))}
	err := guard("model", func() error {
		start := time.Now()
		defer func() { s.stats.Seconds += time.Since(start).Seconds() }()
		zm := s.answered.Model()
		for _, k := range keys {
			v, approx, err := s.value(zm, k)
			if err != nil {
				return fmt.Errorf("smt: model: %w", err)
			}
			m.vals[k] = v
			m.approx = m.approx || approx
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Sat reports whether e is satisfiable (alone, in a fresh scope); cached.
// It does not see the formulas asserted with Assert. Unknown answers
// (timeouts included) are cached too: asking again would most likely time
// out again.
func (s *Solver) Sat(e ir.Expr) (Result, error) {
	if err := s.usable("sat"); err != nil {
		return Unknown, err
	}
	if b, ok := e.(ir.BoolConst); ok {
		if b {
			return Sat, nil
		}
		return Unsat, nil
	}
	key, err := queryKey(e)
	if err != nil {
		return Unknown, fmt.Errorf("smt: sat: %w", err)
	}
	return s.sat("sat", e, key)
}

// Valid reports whether e holds for all values; cached. Unknown counts as
// not valid (the sound answer for abstraction). Valid(e) shares its cache
// entry with Sat(!e).
func (s *Solver) Valid(e ir.Expr) (bool, error) {
	if err := s.usable("valid"); err != nil {
		return false, err
	}
	if b, ok := e.(ir.BoolConst); ok {
		return bool(b), nil
	}
	neg := &ir.Unary{Op: ir.OpNot, X: e}
	key, err := queryKey(neg) // also checks that e is well formed, so Sort cannot panic
	if err != nil {
		return false, fmt.Errorf("smt: valid: %w", err)
	}
	if srt := e.Sort(); srt != ir.Bool {
		return false, fmt.Errorf("smt: valid: %w: formula has sort %s, want bool", ErrSort, srt)
	}
	res, err := s.sat("valid", neg, key)
	if err != nil {
		return false, err
	}
	return res == Unsat, nil
}

// sat answers Sat(e) given e's cache key, on the private solver.
func (s *Solver) sat(what string, e ir.Expr, key string) (Result, error) {
	if c, ok := s.cache[key]; ok {
		s.stats.CacheHits++
		if c.res == Unknown {
			s.reason = c.reason
			if strings.HasPrefix(c.reason, ReasonTimeout) {
				s.stats.TimedOut++ // (a clock's answer, again)
			}
		}
		return c.res, nil
	}
	var res Result
	err := guard(what, func() error {
		f, err := s.newTranslator().formula(e)
		if err != nil {
			return fmt.Errorf("smt: %s: %w", what, err)
		}
		s.aux.Push()
		defer s.aux.Pop()
		s.aux.Assert(f)
		res, _ = s.check(s.aux, []z3.Bool{f})
		return nil
	})
	if errors.Is(err, ErrPanic) {
		// The private solver must be empty for the next query: a stale
		// assertion left by a failed Pop would make later answers wrong.
		if rerr := guard(what, func() error { s.aux.Reset(); return nil }); rerr != nil {
			s.err = rerr
		}
	}
	if err == nil && s.interrupted.Load() {
		err = fmt.Errorf("smt: %s: %w", what, ErrInterrupted)
	}
	if err != nil {
		return Unknown, err
	}
	c := cached{res: res}
	if res == Unknown {
		c.reason = s.reason
	}
	s.cache[key] = c
	return res, nil
}

// Stats returns counters.
func (s *Solver) Stats() Stats { return s.stats }

// constant returns the Z3 constant of variable k, creating it once.
func (s *Solver) constant(k varKey) (z3.Value, error) {
	if c, ok := s.consts[k]; ok {
		return c, nil
	}
	var sort z3.Sort
	switch k.sort {
	case ir.Int:
		sort = s.intSort
	case ir.Real:
		sort = s.realSort
	case ir.Bool:
		sort = s.bSort
	default:
		return nil, fmt.Errorf("%w: variable %s has unknown sort %d", ErrSort, k.name, k.sort)
	}
	c := s.ctx.Const(k.name, sort)
	s.consts[k] = c
	return c, nil
}
