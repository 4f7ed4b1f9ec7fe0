package sqlparse

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/mysql"
	"github.com/dbverify/dbverify/sqlparse/postgres"
)

// Result is a parsed statement with facts about its placeholders.
type Result = rules.Result

// ParseError is a syntax error in a query or constraint.
type ParseError = rules.ParseError

// UnsupportedError is a statement that may write rows in a way the IR
// cannot express.
type UnsupportedError = rules.UnsupportedError

// Parse parses one SQL statement (a trailing ';' is allowed) in dialect d.
//
// UPDATE, INSERT, DELETE and SELECT become *sqlir.Update, *sqlir.Insert,
// *sqlir.Delete and *sqlir.Select; BEGIN / START TRANSACTION, COMMIT,
// ROLLBACK, SAVEPOINT, RELEASE and ROLLBACK TO become *sqlir.TxControl;
// statements that cannot change rows (DDL, SET, SHOW, …) become
// *sqlir.Other. Errors are *ParseError for
// syntax errors, *UnsupportedError for statements that may write rows in a
// way the IR cannot express, and plain errors otherwise. The package
// documentation lists what each dialect maps where.
func Parse(d Dialect, query string) (sqlir.Statement, error) {
	r, err := ParseDetailed(d, query)
	if err != nil {
		return nil, err
	}
	return r.Stmt, nil
}

// ParseDetailed is Parse that also reports the placeholders.
func ParseDetailed(d Dialect, query string) (res *Result, err error) {
	defer rules.Recover(&err)
	switch d {
	case MySQL:
		return mysql.Parse(query)
	case SQLite:
		return postgres.ParseSQLite(query)
	case Postgres:
		return postgres.Parse(query)
	}
	return nil, fmt.Errorf("parse query: unknown dialect %v", d)
}

// ParseConstraint parses a row-level invariant written as a SQL boolean
// expression over one table's columns, e.g. "accounts.balance >= 0" or
// "stock >= 0 AND stock <= capacity", with the MySQL expression grammar.
// Arithmetic, CASE, IN lists, BETWEEN, IS NULL and the functions Parse
// models are allowed; other scalar functions become sqlir.Unknown.
// Placeholders, subqueries and aggregates are rejected.
//
// The table is the one every qualified column names (they must agree),
// else defaultTable; when both are given they must agree too. Column
// references keep their qualifier as written (aliases do not exist here),
// so a consumer should match constraint columns by name. Syntax errors
// wrap a *ParseError whose Query is text and whose Offset points into it.
//
// A condition the MySQL grammar rejects that writes a Postgres cast
// (x::bigint, CAST(x AS BIGINT)) is read with the Postgres grammar, which
// records the casts (sqlir.Constraint.Casts) for the caller to check
// against the column types.
func ParseConstraint(text string, defaultTable string) (*sqlir.Constraint, error) {
	c, err := mysql.ParseConstraint(text, defaultTable)
	var pe *ParseError
	if err == nil || !errors.As(err, &pe) || !pgCast.MatchString(text) {
		return c, err
	}
	if pc, perr := postgres.ParseConstraint(text, defaultTable); perr == nil {
		return pc, nil
	}
	return nil, err
}

// pgCast matches a Postgres cast: x::type or CAST(… AS type).
var pgCast = regexp.MustCompile(`(?i)::|\bcast\s*\(`)

// Format prints e as SQL (MySQL flavour) with the fewest parentheses that
// keep its tree shape, so that parsing the text again gives the same
// expression. Placeholders print as $1, $2, … (Index+1) so that a reader
// can tell them apart; identifiers are backquoted when needed. A nil
// expression prints as "TRUE" (an absent WHERE).
func Format(e sqlir.Expr) string { return rules.Format(e) }

// ErrNotOneRow is matched (errors.Is) by ParseConstraint's error for a
// constraint that is not over one row (a subquery, an aggregate).
var ErrNotOneRow = rules.ErrNotOneRow

// ParseReference reads a referential constraint written with a subquery,
// "T.c IN (SELECT k FROM U)" or "EXISTS (SELECT 1 FROM U WHERE U.k =
// T.c)", as the whole condition (MySQL expression grammar). Another
// condition with a subquery is an error matching ErrNotOneRow that says
// why (a subquery over T itself is a condition over two rows of T).
func ParseReference(text, defaultTable string) (*sqlir.Reference, error) {
	return mysql.ParseReference(text, defaultTable)
}

// NotOneRow returns an error with message msg that matches ErrNotOneRow:
// a constraint that is not checked as a condition over one row, for the
// reason msg.
func NotOneRow(msg string) error { return rules.NotOneRow(msg) }
