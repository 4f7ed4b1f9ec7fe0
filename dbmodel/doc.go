// Package dbmodel lowers the database operations of an ir.Program into plain
// assignments, assumptions and havocs over row symbols, for one constraint
// ∀ r ∈ T : ψ(r) (DESIGN.md §2).
//
// The database is represented by a bounded set of row symbols of table T:
//
//   - r, the watched row: arbitrary, existing and satisfying ψ on entry.
//     If any row can be made to break ψ, some choice of r is broken.
//   - s1, s2, …: one per SELECT site of T, re-bound at each execution. A
//     fresh symbol satisfies the SELECT's WHERE. When T has a known key, a
//     symbol with the same key as a live symbol is that row (all columns
//     equal). Otherwise it satisfies ψ unless the program has already
//     written rows the symbols do not track (the ghost "dirty").
//
// Every UPDATE applies to every live symbol (x.c := WHERE(x) ? e(x) : x.c),
// DELETE clears x.$exists, INSERT may make r the new row. Each call may fail
// (an error branch with no effect). Inside a transaction the writes are
// checked at Commit and undone by Rollback (r is restored from a snapshot);
// auto-committed writes are checked right away. A check is a branch to the
// program's Error location on r.$exists ∧ ¬ψ(r).
//
// Tables other than T are not modelled: their SELECTs return arbitrary
// values and their writes cannot affect ψ.
package dbmodel
