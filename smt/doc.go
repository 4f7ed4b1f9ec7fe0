// Package smt is dbverify's one door to the Z3 SMT solver: it is the only
// package that imports go-z3. It translates ir expressions (sorts Int, Bool
// and Real) into Z3 terms, decides their satisfiability and reads models
// back as ir values.
//
// A Solver owns one Z3 context and two Z3 solvers on it:
//
//   - the incremental solver driven by the caller through Push, Pop, Assert,
//     Check and Model (path feasibility: push a prefix, check, pop);
//   - a private solver for the standalone queries Sat and Valid
//     (abstraction: "does this cube imply that predicate?"), whose answers
//     are cached by the structure of the expression. These queries never see
//     the caller's assertions, so they may be asked at any time.
//
// Both reuse their Z3 solver through push/pop scopes: creating a Z3 solver
// costs milliseconds, a scoped check tens of microseconds.
//
// Semantics of the translation: integers are mathematical integers; OpDiv
// and OpMod on Int follow Go (quotient truncated toward zero, remainder with
// the sign of the dividend). Division or remainder by zero is left to Z3,
// which treats it as an unconstrained value (Go would panic; ir.Eval reports
// an error). Real division is exact. An Int operand meeting a Real one is
// converted to Real.
//
// Lifecycle: a Z3 context costs milliseconds and ~17 MB, so keep one
// Solver per worker goroutine and reuse it (Reset between entry points keeps
// the query cache); Close frees it. Z3 is told not to catch SIGINT (its
// default would swallow Ctrl-C during every check), so the signal reaches
// the Go program; Interrupt, callable from any goroutine, cancels a running
// check for a clean shutdown.
//
// Errors: ill-sorted or malformed expressions are reported as errors, and
// any panic raised by go-z3 (it panics on every Z3 error) is recovered at
// this package's boundary and returned as an error wrapping ErrPanic.
// A Check that Z3 cannot decide (timeout, incomplete theory) answers
// Unknown with a nil error; ReasonUnknown tells why.
package smt
