// Package dynsql runs SQL built at run time: SELECTs by their constant
// beginning (readers), and statements that may write anything.
package dynsql

import (
	"database/sql"
	"fmt"
	"strings"
)

// Filter reads: its text begins "SELECT".
func Filter(db *sql.DB, where string) (*sql.Rows, error) {
	return db.Query("SELECT id, balance FROM accounts WHERE " + where)
}

// Formatted reads: fmt.Sprintf's format begins "SELECT".
func Formatted(db *sql.DB, col string) (*sql.Rows, error) {
	return db.Query(fmt.Sprintf("  select %s FROM accounts", col))
}

// Built reads: the builder's first text is a SELECT.
func Built(db *sql.DB, minBalance string) (*sql.Rows, error) {
	var b strings.Builder
	b.WriteString("\n\tSELECT id FROM accounts")
	if minBalance != "" {
		b.WriteString(" WHERE balance >= " + minBalance)
	}
	return db.Query(b.String())
}

// Narrowed reads: every branch keeps the SELECT.
func Narrowed(db *sql.DB, owner string) (*sql.Rows, error) {
	q := "SELECT id FROM accounts WHERE 1 = 1"
	args := []any{}
	if owner != "" {
		q += " AND owner = ?"
		args = append(args, owner)
	}
	return db.Query(q, args...)
}

// Set may write anything: an UPDATE built at run time.
func Set(db *sql.DB, set string) error {
	_, err := db.Exec("UPDATE accounts SET " + set)
	return err
}

// With may write: a WITH's CTEs may be data-modifying.
func With(db *sql.DB, rest string) (*sql.Rows, error) {
	return db.Query("WITH x AS (SELECT 1) " + rest)
}

// Either may write: one branch's text is not a SELECT.
func Either(db *sql.DB, del bool, where string) error {
	q := "SELECT id FROM accounts WHERE "
	if del {
		q = "DELETE FROM accounts WHERE "
	}
	_, err := db.Exec(q + where)
	return err
}

// Passed may write: nothing says what its caller's text is.
func Passed(db *sql.DB, text string) error {
	_, err := db.Exec(text)
	return err
}
