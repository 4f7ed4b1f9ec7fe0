// Package postgres maps the parse trees of the real Postgres parser
// (github.com/pganalyze/pg_query_go, cgo) to sqlir: Parse for Postgres
// text, ParseSQLite for SQLite text (rewritten into Postgres spelling
// first, see sqlite.go) and ParseConstraint for CHECK bodies written in
// Postgres syntax. Callers use sqlparse.Parse; the dialect-independent
// rules come from sqlparse/internal/rules.
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
// otherwise (a default, INSERT … SELECT, several rows); a multi-row VALUES
// that lists its columns also gets each row's assignments, with that
// row's values, in OnConflictRows (ConflictGuarded says the action has a
// WHERE). A WHERE on the
// action becomes part of each assignment: col = CASE WHEN cond THEN value
// ELSE col END. DEFAULT in VALUES or SET is Unknown; INSERT … DEFAULT
// VALUES is one row with no columns.
//
// UPDATE … FROM and DELETE … USING are over-approximated like MySQL's
// multi-table statements: only columns qualified with the target table (or
// its alias) keep their meaning in SET, WHERE and RETURNING (others are
// Unknown, and a bare "*" in RETURNING becomes one Unknown item); WHERE
// keeps the conjuncts over the target's columns and adds an Unknown "joined
// with …" conjunct. An UPDATE … FROM of exactly one other base table also
// keeps its exact reading in Update.Join (the joined table's columns
// named; sqlir.JoinedUpdate), which the front end uses where the WHERE
// pins a key of that table; so does a self-join, FROM the target table
// under an alias (its columns qualified with the alias, Join.Alias).
//
// SELECT: OFFSET, a LIMIT that is not a positive literal and FETCH set
// SkipsRows; a single-table read keeps its ORDER BY terms (OrderBy, an
// output alias or position replaced by its item) and a literal LIMIT
// (Limit), SKIP LOCKED sets SkipLocked; FOR UPDATE and FOR NO KEY UPDATE set ForUpdate, FOR SHARE sets
// ForShare, FOR KEY SHARE sets neither (it does not block an UPDATE of a
// non-key column). Joins, GROUP BY, HAVING, aggregates, window
// functions, DISTINCT [ON], UNION/INTERSECT/EXCEPT, WITH, subqueries and
// functions in FROM set Complex with Reason and AllTables (WITH query names
// are not tables). A plain single-table SELECT COUNT(*) (or COUNT of a
// constant) also sets CountRows; SELECT EXISTS (SELECT … FROM t WHERE w) of
// a plain single-table subquery sets ExistsRows, Table t and Where w.
//
// Statements: BEGIN/START TRANSACTION, COMMIT/END, ROLLBACK/ABORT,
// SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO [SAVEPOINT] are
// TxControl. TRUNCATE of one table (without CASCADE) is a Delete with nil
// Where — exactly what it does to the rows, and it cannot break a row-level
// constraint. SET, SHOW, LOCK, PREPARE, COPY … TO,
// EXPLAIN (without ANALYZE of a write), SELECT … INTO, CREATE TABLE AS and
// all DDL are Other. *UnsupportedError (with Tables when known): CALL, DO,
// EXECUTE, MERGE, COPY … FROM, data-modifying statements inside WITH (or
// COPY, EXPLAIN ANALYZE, CREATE TABLE AS) — except WITH x AS (UPDATE,
// DELETE or INSERT … RETURNING …) SELECT a, b FROM x, which is that
// write with RETURNING a, b (ctewrite.go) —, TRUNCATE of several tables or
// with CASCADE, COMMIT/ROLLBACK AND CHAIN and
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
package postgres
