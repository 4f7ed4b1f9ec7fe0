// Package pg_audit_after_debit_safe debits an account on PostgreSQL and
// records the debit in an audit log from a fire-and-forget goroutine.
//
// The debit is a guarded UPDATE whose RowsAffected is checked; the audit
// INSERT runs in a goroutine the handler does not wait for. The audit
// row touches no cell of the debit (another table), so every
// interleaving of the goroutine with the rest of the handler ends as if
// the goroutine ran at its go statement.
package pg_audit_after_debit_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

// Store debits accounts.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw takes amt from account id and audits it in the background.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return fmt.Errorf("withdraw: amount %d must be positive", amt)
	}
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amt, id)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if n != 1 {
		return ErrInsufficientFunds
	}
	go s.audit(context.WithoutCancel(ctx), id, amt)
	return nil
}

// audit records a debit; a failure is logged, not returned.
func (s *Store) audit(ctx context.Context, id, amt int64) {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO audit_log (account_id, amount) VALUES ($1, $2)", id, amt); err != nil {
		log.Printf("audit of account %d: %v", id, err)
	}
}
