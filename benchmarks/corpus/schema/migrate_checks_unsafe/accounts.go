package migrate_checks_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Withdraw takes amount from the account and books an entry.
func (s *Store) Withdraw(ctx context.Context, accountID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var balance int64
	err = tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, accountID).Scan(&balance)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if balance == 0 {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, accountID); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO account_entries (account_id, amount) VALUES ($1, -$2::bigint)`, accountID, amount); err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	return tx.Commit()
}
