// Package handlers registers database writers in the ways services do:
// every writer here must be an entry point (or run inside one).
package handlers

import (
	"database/sql"
	"net/http"
)

type Server struct {
	db  *sql.DB
	mux *http.ServeMux
}

// Routes registers a method value, a closure returned by a factory and a
// handler wrapped by a middleware.
func (s *Server) Routes() {
	s.mux.HandleFunc("/withdraw", s.withdraw)
	s.mux.Handle("/deposit", makeDeposit(s.db))
	s.mux.HandleFunc("/fee", logged(s.fee))
}

func (s *Server) withdraw(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE accounts SET balance = balance - 1 WHERE id = 1")
}

func makeDeposit(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.Exec("UPDATE accounts SET balance = balance + 1 WHERE id = 1")
	}
}

func logged(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { next(w, r) }
}

func (s *Server) fee(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE accounts SET balance = balance - 2 WHERE id = 1")
}

// Operations in a table and in a struct field.
var ops = map[string]func(db *sql.DB) error{}

func init() {
	ops["close"] = closeAccount
}

func closeAccount(db *sql.DB) error {
	_, err := db.Exec("DELETE FROM accounts WHERE id = 1")
	return err
}

type job struct {
	run func(db *sql.DB) error
}

var nightly = job{run: applyInterest}

func applyInterest(db *sql.DB) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance * 2")
	return err
}

// Credit is exported; Reward calls it too.
func Credit(db *sql.DB, amt int64) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = 1", amt)
	return err
}

func Reward(db *sql.DB) error { return Credit(db, 5) }

// helper is called by Reward2 only: not an entry.
func helper(db *sql.DB) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance + 1 WHERE id = 2")
	return err
}

func Reward2(db *sql.DB) error { return helper(db) }

// init writing the database is an entry.
func init() {
	var db *sql.DB
	db.Exec("UPDATE accounts SET balance = 0 WHERE id = 3")
}

// Runner runs a function in a transaction; the function writes.
type Runner interface {
	InTx(fn func(tx *sql.Tx) error) error
}

type sqlRunner struct{ db *sql.DB }

func (r *sqlRunner) InTx(fn func(tx *sql.Tx) error) error {
	tx, _ := r.db.Begin()
	if err := fn(tx); err != nil {
		return tx.Rollback()
	}
	return tx.Commit()
}

type Service struct{ r Runner }

func (s *Service) Pay(amt int64) error {
	return s.r.InTx(func(tx *sql.Tx) error {
		_, err := tx.Exec("UPDATE accounts SET balance = balance - ? WHERE id = 4", amt)
		return err
	})
}
