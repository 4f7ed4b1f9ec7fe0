// Package groundtruth runs SQL on real database engines, so that the
// model's semantics (dbmodel, ir.Eval) and the verifier's verdicts can be
// checked against what SQLite, PostgreSQL and MariaDB actually do.
//
// An Engine is a throwaway server (or, for SQLite, a directory of database
// files) whose files live under a directory the caller owns: Start starts
// it, NewDatabase hands out fresh empty databases, Close stops it. Tests
// use StartForTest, which fails — it does not skip — when an engine's
// binaries are missing (`make deps` installs them).
//
// ExecAll, InsertRows and ReadTable create a schema, fill a table and read
// it back in a canonical order, with values normalised so that the three
// engines' results compare equal when they mean the same thing.
//
// The differential semantics suite (differential_test.go) executes each
// statement form the model supports on the three engines and in the model
// (sqlparse → dbmodel → ir.Eval) and compares rows, RowsAffected and
// errors; its table of known divergences lists every disagreement found.
package groundtruth
