// Package mysql_insert_select_refund_unsafe credits a refund for a
// refundable order with INSERT … SELECT (MySQL): the credit is the
// order's total less a handling fee, but Refund takes the fee from any
// refundable order: an order whose total is at most the fee gets a credit
// of zero or less.
package mysql_insert_select_refund_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// ErrNotRefundable: no refundable order.
var ErrNotRefundable = errors.New("order not refundable")

// Refunds writes store credits.
type Refunds struct{ DB *sql.DB }

// Refund credits the buyer of order id with its total less fee.
func (r *Refunds) Refund(ctx context.Context, id, fee int64) error {
	if fee < 0 {
		return fmt.Errorf("negative fee %d", fee)
	}
	res, err := r.DB.ExecContext(ctx,
		"INSERT INTO credits (order_id, user_id, amount) SELECT o.id, o.user_id, o.total - ? FROM orders o WHERE o.id = ? AND o.refundable = 1",
		fee, id)
	if err != nil {
		return fmt.Errorf("refund order %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("refund order %d: %w", id, err)
	}
	if n == 0 {
		return ErrNotRefundable
	}
	return nil
}

// RefundFull credits the buyer of order id with its whole total, when it
// is not zero.
func (r *Refunds) RefundFull(ctx context.Context, id int64) error {
	_, err := r.DB.ExecContext(ctx,
		"INSERT INTO credits (order_id, user_id, amount) SELECT id, user_id, total FROM orders WHERE id = ? AND refundable = 1 AND total <> 0", id)
	if err != nil {
		return fmt.Errorf("refund order %d: %w", id, err)
	}
	return nil
}
