// Package sqlparse turns SQL text into the small SQL IR of package sqlir.
//
// It provides three entry points:
//
//   - Parse (and ParseDetailed) parse one statement of a Go program's SQL in a
//     given Dialect into a sqlir.Statement. MySQL is parsed with
//     github.com/xwb1989/sqlparser (after MySQL 8's row alias "VALUES … AS
//     new ON DUPLICATE KEY UPDATE … new.col" is rewritten to VALUES(col));
//     Postgres with the real Postgres parser, github.com/pganalyze/pg_query_go
//     (cgo); SQLite, whose statement forms (ON CONFLICT, RETURNING, UPDATE …
//     FROM, "quoted" names) are spelt as in Postgres, with the Postgres
//     parser after a rewrite of its placeholders, `name`/[name] quoting,
//     "==", INSERT OR REPLACE/IGNORE/ABORT/FAIL, REPLACE INTO and UPDATE OR
//     IGNORE (kept in the IR as Replace, OnConflictNothing and an Unknown
//     WHERE conjunct). All produce the same IR with the same error types.
//   - ParseConstraint parses a user-written invariant such as
//     "accounts.balance >= 0" into a sqlir.Constraint, using the same
//     expression translation as a WHERE clause.
//   - Package schema (sqlparse/schema) reads DDL (a file, or a migration
//     directory in golang-migrate, goose, sql-migrate or dbmate layout) and
//     collects the columns, keys, foreign keys and CHECK constraints of
//     every table.
//
// Format prints a sqlir expression back as SQL for traces and messages.
//
// # Layout
//
// One adapter package per parser library maps that library's AST to sqlir:
// package mysql (github.com/xwb1989/sqlparser) and package postgres
// (github.com/pganalyze/pg_query_go, also used for SQLite after a textual
// rewrite). The rules that do not depend on the dialect — simple CASE to
// searched CASE, COALESCE/NULLIF/IF/ABS, GREATEST/LEAST under a dialect's
// NULL policy, the filter of a multi-table write, RETURNING items of a
// joined write, the table of a constraint — are written once, in
// sqlparse/internal/rules, which both adapters import. They live in an
// internal package rather than in sqlparse itself because sqlparse imports
// the adapters to dispatch Parse: an adapter importing sqlparse would be an
// import cycle. sqlparse re-exports the shared types (Result, ParseError,
// UnsupportedError) as aliases.
//
// # Soundness conventions
//
// Nothing the parser does not understand is dropped. An expression it
// cannot model becomes sqlir.Unknown (an arbitrary value) that records the
// placeholders inside it; a statement it cannot model is either sqlir.Other
// (statements that cannot change rows: DDL, SET, SHOW, …) or an error
// (*ParseError for syntax errors, *UnsupportedError for statements that may
// write rows in a way the IR cannot express, e.g. CALL or a multi-table
// UPDATE that assigns columns of two tables). Where a write is only partly
// understood, the unknown part is over-approximated: UPDATE … LIMIT n and
// multi-table UPDATE/DELETE get an extra Unknown conjunct in Where, so the
// row model may or may not apply them to each row that satisfies the rest.
//
// # Placeholders
//
// "?" placeholders are numbered from 0 in the order they appear in the
// query text. Named placeholders (":name", as rewritten by sqlx) are
// numbered from 0 in the order of each name's first appearance, so a name
// used twice is one parameter; ParseDetailed reports the names by index.
// A query may not mix both styles. In the Postgres dialect "$n" is
// parameter n-1: a "$1" used twice is one parameter, and NumParams is the
// highest n. Format and the Text of Unknown nodes print parameter i as
// "$<i+1>" whatever the query's style, so messages are unambiguous.
//
// # Names
//
// Table and column names keep the spelling of the query; compare them
// case-insensitively (sqlir.Statement.Tables lower-cases). A database
// qualifier (db.accounts) is dropped. Column qualifiers are resolved through
// table aliases to the table name; unqualified columns have Table "". A
// SELECT item "*" or "t.*" has Star set and Expr &sqlir.ColRef{Table: t or
// "", Name: "*"}.
//
// # Semantics folded into the IR
//
// BETWEEN, IN (list), row-value equality, IS [NOT] TRUE/FALSE, simple CASE,
// COALESCE, IFNULL, IF, NULLIF, ABS, GREATEST and LEAST are rewritten into
// comparisons, AND/OR/NOT and searched CASE with the same three-valued
// meaning. In the MySQL dialect a later SET assignment sees the new value of
// an earlier one; Update.Set and Insert.OnConflict are rewritten so that
// every right-hand side refers to the old row (simultaneous assignment).
// VALUES(col) in ON DUPLICATE KEY UPDATE of a one-row INSERT is replaced by
// the inserted value. The IR never shares subtrees.
package sqlparse
