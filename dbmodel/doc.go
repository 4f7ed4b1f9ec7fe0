// Package dbmodel lowers the database operations of an ir.Program into plain
// assignments, assumptions and havocs over row symbols, for one property
// (package spec), today a row check ∀ r ∈ T : ψ(r). What the property
// watches and how it is checked comes from its instrumentation (package
// instrument); the model itself knows no property.
//
// Each table the property watches has a model (tables.go: its tracked
// columns, sorts and keys, and its row symbols, symbols.go); a write
// applies to the model of the table it names (write.go), a read binds a
// symbol of it (read.go). For a row check, the database is represented by
// a bounded set of row symbols of table T:
//
//   - r, the watched row: arbitrary, existing and satisfying ψ on entry.
//     If any row can be made to break ψ, some choice of r is broken.
//   - s1, s2, …: one per SELECT site of T, re-bound at each execution. A
//     fresh symbol satisfies the SELECT's WHERE. T's keys are every PRIMARY
//     KEY and UNIQUE key the schema declares (without one, a column named
//     id): a symbol that agrees with a live symbol on all columns of some
//     key is that row (all columns equal); a key column that may be NULL
//     counts only where both symbols are known to hold a value (NULLs do
//     not collide). Otherwise it satisfies ψ unless the program has already
//     written rows the symbols do not track (the ghost "dirty").
//
// Every UPDATE applies to every live symbol (x.c := WHERE(x) ? e(x) : x.c),
// DELETE clears x.$exists, INSERT may make r the new row. Each call may fail
// (an error branch with no effect; a failed Scan leaves its destinations
// unchanged). A write that would break a CHECK of the schema fails, except
// the CHECKs being verified (see checks.go). A key-pinned UPDATE affects
// one row exactly when the row with that key matches.
//
// Every operation runs on a handle (ir.Tx): the pool, a transaction, or a
// connection on which BEGIN/COMMIT/ROLLBACK are sent as SQL (see tx.go).
// A transaction's writes are pending until Commit, which checks the
// committed state; Rollback undoes that transaction's own writes (r from
// the snapshot taken before the transaction first wrote it), not those
// other handles committed meanwhile. Other handles read r's committed
// state, and a write to r while another transaction holds its lock fails.
// Auto-committed writes are checked right away. A check is a branch to the
// program's Error location on r.$exists ∧ ¬ψ(r) in the committed state.
//
// The schema's triggers, rules, updatable views and generated columns
// that a write of the program reaches make the entry UNKNOWN (see
// schemaobj.go). An INSERT … SELECT of one table the property does not
// watch inserts its select list on one symbolic row of that table
// (insertselect.go). Values the model knows it approximates (INSERT …
// SELECT of a join, an aggregate or a watched table, joins and subqueries
// over the constrained table, SELECT * without a schema) are marked
// (ir.Var.Approx): a counterexample that depends on one is UNKNOWN.
//
// Values are never NULL in the model, except where the model cannot tell:
// an expression over NOT NULL columns, placeholders bound to Go values and
// literals is not NULL (so IS NULL is false and GREATEST/LEAST are max and
// min); whether any other value IS NULL is arbitrary.
//
// Expressions follow the program's dialect (Options.Dialect): "/" of two
// integers truncates in Postgres and SQLite and is exact in MySQL (a
// DECIMAL, rounded half away from zero when stored into an integer column),
// see arith.go. Strings are their codes (ir.StringCode): a known text used
// as a number is the number the engine converts it to, and strings compare
// exactly where every engine agrees, otherwise with an approximated
// (ir.Var.Approx) result, see strings.go. A column whose collation is not
// binary (MySQL's default, SQLite NOCASE, PostgreSQL CHAR(n)) compares
// the folded strings, in every comparison and key identity: two Go
// strings may be one key (collation.go, ir's string variants).
//
// A reference (spec.Reference) watches a row r of the referencing table
// and a key slot p of the referenced one: the row with key p.k, if any,
// which may not exist on entry (reference.go, docs/design.md §2). Under
// concurrent requests p has its own row lock and committed state,
// apart from r's, at READ COMMITTED; the rest is UNKNOWN
// (refconcurrent.go).
//
// Tables the property does not watch are not modelled: their SELECTs
// return a row of fresh values that satisfies the SELECT's WHERE where
// the model evaluates it exactly, the schema's CHECKs and the columns'
// ranges (otherwhere.go), and that of a table the entry never writes
// satisfies the facts (Options.Facts) about that table; their writes
// cannot affect ψ.
package dbmodel
