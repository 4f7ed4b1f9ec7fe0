// Package commit_other_tx_unsafe debits an account in one transaction and
// records an audit entry in a second, independent transaction that
// commits first.
package commit_other_tx_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("accounts: insufficient funds")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	insertAudit   = "INSERT INTO audit_log (account_id, delta) VALUES (?, ?)"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id; the attempt is audited even when it
// is refused.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, debitAccount, amt, id); err != nil {
		return err
	}
	audit, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := audit.ExecContext(ctx, insertAudit, id, -amt); err != nil {
		audit.Rollback()
		return err
	}
	if err := audit.Commit(); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	// BUG: tests the balance against the audit threshold, not against 0.
	if bal < -1000 {
		return ErrInsufficientFunds
	}
	return tx.Commit()
}
