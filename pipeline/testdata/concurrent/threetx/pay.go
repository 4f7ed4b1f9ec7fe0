// Package threetx pays only when the balance covers twice the amount (a
// safety margin), without a lock: two concurrent payments keep the balance,
// three can overdraw it (adv8 p68).
package threetx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Pay takes amount if the balance is at least twice the amount.
func Pay(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 || amount > 1_000_000 {
		return errors.New("bad amount")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal); err != nil {
		return fmt.Errorf("account: %w", err)
	}
	if bal < 2*amount {
		return errors.New("insufficient funds (margin)")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id); err != nil {
		return fmt.Errorf("pay: %w", err)
	}
	return tx.Commit()
}
