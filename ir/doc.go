// Package ir defines the small program model that dbverify verifies.
//
// A Program is the control-flow automaton of one entry point after the
// frontend has inlined its callees: numbered locations joined by edges, each
// edge carrying exactly one statement. The statements are deliberately few:
//
//	Assign  x1, …, xn := e1, …, en     (parallel assignment)
//	Assume  c                           (the edge is taken only if c holds)
//	Havoc   x1, …, xn                   (arbitrary new values)
//
// plus the database operations the frontend finds (Exec, Select, Begin,
// Commit, Rollback), which carry a parsed statement of package sqlir and the
// IR expressions bound to its placeholders. Package dbmodel lowers the
// database operations into the first three statements over row symbols for a
// given constraint, so the abstraction, the path formulas and the trace
// printer only ever see Assign, Assume and Havoc.
//
// Expressions are linear integer/real arithmetic and boolean logic with
// if-then-else (Expr). Variables are typed (Int, Bool, Real); strings are
// modelled as uninterpreted integers (equality only), error values as the
// boolean "is non-nil".
//
// The level of abstraction is that of Go source after SSA construction:
// every variable is a Go value or a row-symbol column, every edge has a
// source position and a short text (a Go statement or SQL) for traces.
// Programs print in a stable syntax (Program.String) used by --dump-ir and by
// tests; Sanity checks a program's invariants.
package ir
