// Package billing refunds orders (MySQL). Refund is exported: the
// support tool calls it directly, and CancelOrder calls it too.
package billing

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrNothingToRefund is returned for orders with no amount.
var ErrNothingToRefund = errors.New("nothing to refund")

// Refund credits amount back to the account.
func Refund(ctx context.Context, db *sql.DB, accountID, amount int64) error {
	// BUG: the amount is not checked here; only CancelOrder checks it, and
	// the support tool calls Refund directly (a negative refund debits).
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, accountID)
	return err
}

// CancelOrder cancels an order and refunds what was paid.
func CancelOrder(ctx context.Context, db *sql.DB, orderID int64) error {
	var accountID, amount int64
	if err := db.QueryRowContext(ctx, "SELECT account_id, amount FROM orders WHERE id = ?", orderID).Scan(&accountID, &amount); err != nil {
		return err
	}
	if amount <= 0 {
		return ErrNothingToRefund
	}
	if _, err := db.ExecContext(ctx, "UPDATE orders SET status = 'cancelled' WHERE id = ?", orderID); err != nil {
		return err
	}
	return Refund(ctx, db, accountID, amount)
}
