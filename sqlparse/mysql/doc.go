// Package mysql maps the parse trees of github.com/xwb1989/sqlparser to
// sqlir: Parse for MySQL (and MariaDB) statements, ParseConstraint for a
// user-written invariant and for CHECK bodies. Callers use sqlparse.Parse
// and sqlparse.ParseConstraint; the dialect-independent rules come from
// sqlparse/internal/rules.
//
// What the adapter adds for MySQL: MySQL 8's row alias "VALUES … AS new ON
// DUPLICATE KEY UPDATE … new.col" is rewritten to VALUES(col) before
// parsing (rowalias.go); locking clauses sqlparser does not know (FOR
// SHARE, NOWAIT, SKIP LOCKED, OF t) are normalised; a later SET assignment
// sees the new value of an earlier one, and Update.Set is rewritten so that
// every right-hand side refers to the old row; DIV is integer division
// (sqlir.OpDivInt); GREATEST and LEAST are NULL when any argument is.
// Multi-table UPDATE and DELETE and UPDATE/DELETE … LIMIT get an Unknown
// WHERE conjunct (see sqlparse's soundness conventions); a multi-table
// UPDATE of two base tables joined by an inner join or a comma also keeps
// its exact reading in Update.Join (sqlir.JoinedUpdate). A SELECT keeps
// its ORDER BY terms, a literal LIMIT and SKIP LOCKED.
package mysql
