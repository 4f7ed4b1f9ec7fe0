// Package insert_validate_unsafe opens new accounts with an initial deposit.
package insert_validate_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrDepositTooLarge = errors.New("accounts: initial deposit above the opening limit")

const (
	maxOpeningDeposit = 50000
	insertAccount     = "INSERT INTO accounts (id, balance) VALUES (?, ?)"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// NewStore returns a Store backed by db.
func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Open creates account id holding the initial deposit.
func (s *Store) Open(ctx context.Context, id int64, initial int64) error {
	if initial > maxOpeningDeposit {
		return ErrDepositTooLarge
	}
	if _, err := s.db.ExecContext(ctx, insertAccount, id, initial); err != nil {
		return fmt.Errorf("open account %d: %w", id, err)
	}
	return nil
}
