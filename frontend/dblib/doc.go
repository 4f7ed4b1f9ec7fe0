// Package dblib describes the database libraries the front end models —
// database/sql, sqlx and pgx (v4 and v5, with pgxpool and pgconn) — as
// data: which types are database handles, what each method or function
// does with SQL, which driver names a dialect, and the few calls that
// need code of their own.
//
// A library is one file holding one Library value. Its tables are keyed
// by qualified names, as staticcheck's knowledge is:
//
//	"(*database/sql.DB).ExecContext"   a method (types.Func.FullName)
//	"(github.com/jackc/pgx/v5.Tx).Exec" an interface method
//	"github.com/jmoiron/sqlx.Get"      a package function
//	"database/sql.DB"                  a handle type
//
// The front end resolves a call to a Call (Resolve for a static callee,
// OnHandle for an interface method whose receiver it traced to a handle):
// the operation (Op) and the positions of the SQL text, the placeholder
// values, the destination and the named argument. It then emits the
// generic IR for the operation (run SQL, begin, commit, scan, …) itself,
// or, when the method has a Special handler, calls the handler with a
// Builder — the narrow interface through which a library's own
// semantics (pgx.BeginFunc runs a callback inside a transaction, sqlx.In
// expands a slice into placeholders) reach the translator without this
// package knowing its value model.
//
// A method of a user interface (sqlc's DBTX, a repository's Querier) is
// matched by its bare name against the methods of every library
// (ByName), because its receiver type is not a library's.
//
// Adding a library: see CONTRIBUTING.md ("A database library").
package dblib
