// Package payments debits accounts through a transaction runner interface
// (MySQL): the runner begins and commits, the closure it is given writes.
package payments

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// TxRunner runs fn in a transaction, committing when it returns nil.
type TxRunner interface {
	InTx(ctx context.Context, fn func(tx *sql.Tx) error) error
}

type sqlRunner struct{ db *sql.DB }

// NewRunner returns a TxRunner over db.
func NewRunner(db *sql.DB) TxRunner { return &sqlRunner{db: db} }

func (r *sqlRunner) InTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ErrInsufficient is returned when the balance does not cover a payment.
var ErrInsufficient = errors.New("insufficient funds")

// Service takes payments.
type Service struct {
	runner TxRunner
}

// Pay debits amount from the account.
func (s *Service) Pay(ctx context.Context, accountID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	return s.runner.InTx(ctx, func(tx *sql.Tx) error {
		var bal int64
		if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", accountID).Scan(&bal); err != nil {
			return err
		}
		if bal < amount {
			return ErrInsufficient
		}
		_, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = ?", bal-amount, accountID)
		return err
	})
}
