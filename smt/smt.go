package smt

import "errors"

// Result is the answer of a satisfiability check.
type Result int

const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Stats counts solver work.
type Stats struct {
	Queries   int     // Check calls sent to Z3
	CacheHits int     // Sat/Valid answered from the cache
	Seconds   float64 // time spent inside Z3
	// RLimitUnits is Z3's deterministic resource count over all checks,
	// MaxCheckRLimit the largest of one check (what SetRLimit bounds).
	RLimitUnits    uint64
	MaxCheckRLimit uint64
	// Restarts counts the attempts of checks restarted with another
	// random seed after running out of time (restart.go).
	Restarts int
	// TimedOut counts the checks that answered Unknown because a wall
	// clock stopped them (ReasonTimeout: --timeout, or the restarts'
	// ladder spent): the only checks whose answer a clock decided (a
	// restarted check that answers sat or unsat answers as without one).
	TimedOut int
	// Watchdog counts the checks the package's own watchdog interrupted
	// because Z3's timer missed their time limit (restart.go).
	Watchdog int
}

// Errors a caller may want to recognise with errors.Is.
var (
	// ErrPanic marks a panic (normally a Z3 error raised by go-z3) that was
	// recovered at the package boundary.
	ErrPanic = errors.New("recovered panic")
	// ErrClosed is returned by every method of a closed Solver.
	ErrClosed = errors.New("solver is closed")
	// ErrNoModel is returned by Model when the last Check did not answer
	// Sat, or the solver changed (Push, Pop, Assert) since.
	ErrNoModel = errors.New("no model")
	// ErrSort is returned for an ill-sorted or malformed expression.
	ErrSort = errors.New("ill-sorted expression")
	// ErrScope is returned after a Pop without a matching Push.
	ErrScope = errors.New("unbalanced Pop")
	// ErrInterrupted is returned by the call Interrupt cancelled and by
	// every later one.
	ErrInterrupted = errors.New("solver interrupted")
)
