// Package progen generates small Go programs over database/sql, in the
// style of Csmith (Yang, Chen, Eide, Regehr, PLDI 2011): random but
// well-formed store methods with guards, transactions, deferred
// rollbacks, early returns, loops, helper functions, Go arithmetic and
// RowsAffected checks, over one table of SQLite, PostgreSQL or MySQL
// (placeholders, driver and DDL of the dialect) whose constraints they may
// or may not keep.
//
// The programs carry no expected verdict: benchmarks/crosscheck decides
// each of dbverify's verdicts by execution (a SAFE must survive random
// runs on the program's engine — SQLite embedded, throwaway PostgreSQL and
// MariaDB servers —, an UNSAFE's counterexample must break the constraint
// there), so every disagreement is a defect of the tool found by a program
// nobody wrote by hand. cmd/progen runs the loop for a budget; make bench
// runs it, and a generated program that disagrees becomes a corpus case.
//
// Generation is deterministic: the same seed gives the same program.
package progen
