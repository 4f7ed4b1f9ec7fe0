package smt

import "github.com/dbverify/dbverify/ir"

// Result is the answer of a satisfiability check.
type Result int

const (
	Unknown Result = iota
	Sat
	Unsat
)

// Solver is one Z3 context and one incremental solver. It is not safe for
// concurrent use: keep one per worker goroutine.
type Solver struct{}

// NewSolver returns a solver; timeoutMS bounds each Check (0: no bound).
func NewSolver(timeoutMS int) (*Solver, error) { panic("TODO") }

// Close releases the Z3 context.
func (s *Solver) Close() { panic("TODO") }

// Push opens a scope.
func (s *Solver) Push() { panic("TODO") }

// Pop closes the innermost scope, dropping its assertions.
func (s *Solver) Pop() { panic("TODO") }

// Assert adds e (a Bool expression) to the current scope.
func (s *Solver) Assert(e ir.Expr) error { panic("TODO") }

// Check decides the conjunction of the asserted formulas.
func (s *Solver) Check() (Result, error) { panic("TODO") }

// Model returns the model of the last Sat Check.
func (s *Solver) Model() (*Model, error) { panic("TODO") }

// Sat reports whether e is satisfiable (alone, in a fresh scope); cached.
func (s *Solver) Sat(e ir.Expr) (Result, error) { panic("TODO") }

// Valid reports whether e holds for all values; cached. Unknown counts as
// not valid (the sound answer for abstraction).
func (s *Solver) Valid(e ir.Expr) (bool, error) { panic("TODO") }

// Stats returns counters.
func (s *Solver) Stats() Stats { panic("TODO") }

// Stats counts solver work.
type Stats struct {
	Queries   int     // Check calls sent to Z3
	CacheHits int     // Sat/Valid answered from the cache
	Seconds   float64 // time spent inside Z3
}

// Model maps variables to values.
type Model struct{}

// Value returns v's value; variables the formula did not constrain get the
// zero of their sort (model completion), so ok is false only for a nil Model.
func (m *Model) Value(v *ir.Var) (ir.Value, bool) { panic("TODO") }
