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
//   - ParseSchema and LoadSchema read DDL (a file, or a migration directory
//     in golang-migrate, goose, sql-migrate or dbmate layout) and collect the
//     columns, keys and CHECK constraints of every table.
//
// Format prints a sqlir expression back as SQL for traces and messages.
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
//
// # Postgres
//
// Postgres names are case-folded by the parser (unquoted names are
// lower-case, quoted ones keep their spelling), and qualifiers resolve
// through aliases exactly; a schema qualifier (public.accounts) is dropped.
// Besides the rewrites above, IS [NOT] DISTINCT FROM, x op ANY/ALL
// (ARRAY[…]), BETWEEN SYMMETRIC, IS [NOT] UNKNOWN and ROW(…) IS [NOT] NULL
// are folded too; GREATEST and LEAST follow Postgres (NULL arguments are
// ignored). Unknown texts are deparsed Postgres SQL.
//
// Casts (x::type, CAST(x AS type)): a placeholder keeps its value (the
// driver binds the Go argument as that type); a literal is converted when
// that is exact ('5'::int is 5, '1.5'::numeric is 1.5, 'new'::mood is the
// string); a column or other expression cast to a numeric, text, boolean or
// user-defined (enum, domain) type without length or precision keeps its
// value — the parser knows no column types, so a rounding integer cast of a
// numeric column is not noticed. Other casts (to dates, times, json, arrays,
// varchar(n), numeric(p,s), …) are Unknown.
//
// RETURNING lists become Update/Insert/Delete.Returning (a SelectItem per
// entry; "*" and "t.*" have Star set). They are evaluated on the row after
// the statement: the new values for UPDATE and for INSERT (including a row
// updated by ON CONFLICT DO UPDATE; ON CONFLICT DO NOTHING returns nothing
// for a skipped row), the deleted row for DELETE.
//
// INSERT … ON CONFLICT DO UPDATE sets HasOnConflict and OnConflict; DO
// NOTHING sets OnConflictNothing (as MySQL's INSERT IGNORE does);
// ConflictColumns / ConflictConstraint record the conflict target, and
// ConflictWhere the index predicate of ON CONFLICT (cols) WHERE pred. In the
// assignments, columns (unqualified, or qualified with the table or its
// alias) are the existing row's; EXCLUDED.col is replaced by the inserted
// value for a one-row VALUES insert that lists col, and is Unknown
// otherwise (a default, INSERT … SELECT, several rows). A WHERE on the
// action becomes part of each assignment: col = CASE WHEN cond THEN value
// ELSE col END. DEFAULT in VALUES or SET is Unknown; INSERT … DEFAULT
// VALUES is one row with no columns.
//
// UPDATE … FROM and DELETE … USING are over-approximated like MySQL's
// multi-table statements: only columns qualified with the target table (or
// its alias) keep their meaning in SET, WHERE and RETURNING (others are
// Unknown, and a bare "*" in RETURNING becomes one Unknown item); WHERE
// keeps the conjuncts over the target's columns and adds an Unknown "joined
// with …" conjunct.
//
// SELECT: LIMIT, OFFSET, FETCH and ORDER BY are ignored for a single-table
// read; FOR UPDATE and FOR NO KEY UPDATE set ForUpdate, FOR SHARE and FOR
// KEY SHARE set ForShare. Joins, GROUP BY, HAVING, aggregates, window
// functions, DISTINCT [ON], UNION/INTERSECT/EXCEPT, WITH, subqueries and
// functions in FROM set Complex with Reason and AllTables (WITH query names
// are not tables).
//
// Statements: BEGIN/START TRANSACTION, COMMIT/END and ROLLBACK/ABORT are
// TxControl. TRUNCATE of one table (without CASCADE) is a Delete with nil
// Where — exactly what it does to the rows, and it cannot break a row-level
// constraint. SAVEPOINT, RELEASE, SET, SHOW, LOCK, PREPARE, COPY … TO,
// EXPLAIN (without ANALYZE of a write), SELECT … INTO, CREATE TABLE AS and
// all DDL are Other. *UnsupportedError (with Tables when known): CALL, DO,
// EXECUTE, MERGE, COPY … FROM, data-modifying statements inside WITH (or
// COPY, EXPLAIN ANALYZE, CREATE TABLE AS), TRUNCATE of several tables or
// with CASCADE, ROLLBACK TO SAVEPOINT, COMMIT/ROLLBACK AND CHAIN and
// two-phase commit. Syntax errors are *ParseError with the byte Offset of
// the token Postgres stopped at (pg_query's character position converted),
// Msg such as "syntax error" or "unterminated quoted string", and Near the
// token; a query holding more than one statement is a *ParseError at the
// second one. As in MySQL, a function call in a SELECT is a value only (its
// side effects, if any, are not modelled).
//
// # SQLite
//
// Placeholders: "?" takes the index one past the largest so far, "?NNN"
// is parameter NNN-1, and a name (":x", "@x", "$x") takes the next index
// at its first appearance (ParamNames lists them); "$NNN" is parameter
// NNN-1, as modernc.org/sqlite binds it. Besides the Postgres
// rewrites, iif(c, a, b) is a CASE, ifnull(a, b) a COALESCE, and max/min
// with two to four arguments are scalar (NULL when any argument is NULL;
// a SELECT using them is not an aggregate). INSERT OR ROLLBACK, UPDATE OR
// REPLACE/ROLLBACK, INSERT OR FAIL of several rows and INSERT OR
// REPLACE/IGNORE combined with ON CONFLICT are *UnsupportedError. Error
// offsets are offsets into the original query.
//
// # Schemas
//
// The DDL reader is dialect-neutral (a tolerant scanner). A CHECK body is
// parsed with the MySQL expression grammar after Postgres casts and quoted
// names are neutralised; when that fails with a syntax error (or the body
// uses "||", which is OR for MySQL but concatenation for Postgres) it is
// parsed with the Postgres grammar instead. A CHECK the Postgres grammar
// parses but that is no row-level constraint (a subquery, another table, …)
// is skipped with a message in sqlir.Schema.Warnings; a CHECK neither
// grammar parses is an error.
package sqlparse
