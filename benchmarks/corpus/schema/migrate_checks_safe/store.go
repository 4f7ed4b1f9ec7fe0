// Package migrate_checks_safe is the data layer of a small shop (PostgreSQL,
// schema managed by golang-migrate in ./migrations). The invariants are the
// CHECK constraints of the migrations.
package migrate_checks_safe

import (
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

var (
	ErrInvalidAmount     = errors.New("shop: amount must be positive")
	ErrInvalidPrice      = errors.New("shop: price must not be negative")
	ErrInsufficientFunds = errors.New("shop: insufficient funds")
	ErrOutOfStock        = errors.New("shop: out of stock")
	ErrNotFound          = errors.New("shop: not found")
)

// Store holds the database handle shared by the repositories.
type Store struct {
	db *sql.DB
}

func NewStore(db *sql.DB) *Store { return &Store{db: db} }
