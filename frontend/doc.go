// Package frontend loads Go packages (go/packages + go/ssa), finds the SQL
// they run through database/sql, and translates each entry point into an
// ir.Program: a control-flow automaton with callees inlined, Go values as IR
// variables and database calls as IR database operations.
//
// What the translation models:
//
//   - int, bool and float values and their arithmetic and comparisons;
//     strings as uninterpreted integers (constants keep their text, so SQL
//     built from constants and constant concatenation is known);
//   - error values as the boolean "is non-nil": errors.New, fmt.Errorf and
//     package-level sentinels are non-nil, every database call may fail;
//   - address-taken locals, local structs and the fields of structs reached
//     through parameters as memory cells (a scalar cell is an IR variable);
//   - calls to functions of the loaded module, inlined (closures included)
//     up to a depth bound, and defer;
//   - *sql.DB, *sql.Conn, *sql.Tx, *sql.Stmt, *sql.Row, *sql.Rows and
//     sql.Result operations.
//
// Everything else is either over-approximated (a call outside the module
// gets arbitrary results; slices and maps give arbitrary elements) or, when
// that would be unsound (SQL text not known, a database handle passed to
// unknown code, recursion), recorded in Program.Unsupported so the verdict
// is UNKNOWN with the construct and its position.
package frontend
