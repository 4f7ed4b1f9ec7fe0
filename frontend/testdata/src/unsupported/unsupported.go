// Package unsupported uses constructs dbverify cannot model soundly.
package unsupported

import (
	"database/sql"
	"fmt"
	"sync/atomic"
)

// Retry recurses.
func Retry(db *sql.DB, id, amt int64, n int) error {
	if n == 0 {
		return nil
	}
	if _, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amt, id, amt); err != nil {
		return Retry(db, id, amt, n-1)
	}
	return nil
}

// Dynamic builds its SQL at run time.
func Dynamic(db *sql.DB, table string, amt int64) error {
	_, err := db.Exec(fmt.Sprintf("UPDATE %s SET balance = balance - ?", table), amt)
	return err
}

func bump(db *sql.DB, id int64) {
	db.Exec("UPDATE accounts SET balance = balance - 1 WHERE id = ?", id)
}

// Async writes in a goroutine.
func Async(db *sql.DB, id int64) {
	go bump(db, id)
}

// Handoff passes the database to code the analysis does not see.
func Handoff(db *sql.DB, f func(*sql.DB) error) error {
	if _, err := db.Exec("UPDATE accounts SET balance = 0 WHERE id = 1"); err != nil {
		return err
	}
	return f(db)
}

// Stmts keeps a statement prepared in two places with different SQL: a
// method that runs it cannot know which.
type Stmts struct {
	debit *sql.Stmt
}

// NewStrict prepares the guarded debit.
func NewStrict(db *sql.DB) (*Stmts, error) {
	st, err := db.Prepare("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?")
	return &Stmts{debit: st}, err
}

// NewLoose prepares an unguarded one into the same field.
func NewLoose(db *sql.DB) (*Stmts, error) {
	st, err := db.Prepare("UPDATE accounts SET balance = balance - ? WHERE id = ?")
	return &Stmts{debit: st}, err
}

// Debit runs whichever was prepared.
func (s *Stmts) Debit(id, amt int64) error {
	_, err := s.debit.Exec(amt, id, amt)
	return err
}

// OpenAndStash opens its own handle and hands it to a function outside
// the analysed code (which may run SQL on it).
func OpenAndStash(dsn string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	_, err = db.Exec("UPDATE accounts SET balance = balance - 1 WHERE id = 1 AND balance >= 1")
	stash.Store(db)
	return err
}

// stash keeps a handle for code the analysis does not see.
var stash atomic.Value
