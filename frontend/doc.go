// Package frontend loads Go packages (go/packages + go/ssa), finds the SQL
// they run through database/sql, and translates each entry point into an
// ir.Program: a control-flow automaton with callees inlined, Go values as IR
// variables and database calls as IR database operations.
//
// What the translation models:
//
//   - int, bool, float and decimal values and their arithmetic and
//     comparisons (floats and decimals as reals, see below);
//     strings as uninterpreted integers (constants keep their text, so SQL
//     built from constants and constant concatenation is known);
//   - error values as the boolean "is non-nil": errors.New, fmt.Errorf and
//     package-level sentinels are non-nil, every database call may fail;
//     the constructors and wrappers of pkg/errors, xerrors and
//     cockroachdb/errors as those packages document them (errwrap.go);
//   - panics (explicit, log.Panic, sqlx Must*, and — where a deferred call
//     could run — index out of range, integer division by zero, failed
//     type assertions, nil map writes) unwinding through the deferred
//     calls of every inlined frame; recover() in a deferred call stops
//     them (panics.go);
//   - pointers the model loses track of: their cells are havocked at
//     every store through an untracked pointer and every call of outside
//     code that may reach them (escape.go);
//   - unsigned values are not negative; package-level variables that
//     nothing reassigns keep their constant initialiser (globals.go);
//   - address-taken locals, local structs and the fields of structs reached
//     through parameters as memory cells (a scalar cell is an IR variable);
//   - calls to functions of the loaded module, inlined (closures included)
//     up to a depth bound, and defer;
//   - goroutines (go statements, errgroup's Go, sync.WaitGroup.Go) as a
//     call at the go statement that may stop before any of its database
//     operations, recorded in Program.Goroutines for the pipeline to
//     decide whether that order stands for every interleaving
//     (goroutines.go);
//   - the operations of database/sql, sqlx and pgx handles (pools,
//     connections, transactions, statements, rows, results), described
//     as data in package dblib, one file per library; a program that
//     opens handles of two dialects has each statement read in the
//     dialect of the handle it runs on (dialects.go).
//
// Floats and decimals are reals. float32, float64 and
// github.com/shopspring/decimal.Decimal values are IR reals, and float
// arithmetic, integer-to-float conversions and decimal.NewFromFloat are
// exact: this is an assumption, not an over-approximation. Rounding and
// overflow to ±Inf are not modelled (see floatround.go for the rounded
// re-check); NaN is, as a flag carried with the floats that may be NaN
// (strconv.ParseFloat's result, float inputs), which comparisons,
// math.IsNaN and float-to-integer conversions read (floatnan.go);
// a non-constant float-to-integer conversion outside the target's range
// or of NaN gives an arbitrary value marked as an approximation;
// a float constant is the shortest decimal that rounds to it (0.1 is 1/10),
// so a verdict may be wrong for a program whose outcome depends on
// rounding error (0.1+0.2 == 0.3 is true in the model). Decimal arithmetic
// the library computes exactly (Add, Sub, Mul, Neg, Abs, comparisons) is
// exact in the model too; rounding methods with a constant precision
// (Round, Truncate, Floor, IntPart, …) and float-to-integer conversions
// give a value within one rounding unit of their argument, on the side
// the rounding mode allows; other decimal operations (Div, Pow, String,
// Float64, …) give arbitrary values. == on two Decimal structs compares
// their representation: true only for equal numbers, otherwise unknown.
// decimal.Zero is taken to stay 0.
//
// Everything else is either over-approximated (a call outside the module
// gets arbitrary results; slices and maps give arbitrary elements, but
// for the one element of a slice a loop fills by appends that the model
// follows exactly, see collected.go) or, when
// that would be unsound (SQL text not known, a database handle passed to
// unknown code, recursion), recorded in Program.Unsupported so the verdict
// is UNKNOWN with the construct and its position.
package frontend
