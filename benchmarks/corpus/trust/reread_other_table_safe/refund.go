// Package reread_other_table_safe refunds a transfer: the handler checks
// the transfer, then the transaction reads it again by the same key and
// credits its total. Transfers are never written here, so both reads
// return the same row: the total credited is the one checked.
package reread_other_table_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrNotRefundable is returned for a transfer that cannot be refunded.
var ErrNotRefundable = errors.New("refund: not refundable")

// Refunds credits accounts back.
type Refunds struct{ DB *sql.DB }

type transfer struct {
	account int64
	total   int64
	status  string
}

func (r *Refunds) transfer(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id int64) (transfer, error) {
	var t transfer
	err := q.QueryRowContext(ctx, `SELECT account_id, total, status FROM transfers WHERE transfer_id = $1`, id).Scan(&t.account, &t.total, &t.status)
	return t, err
}

// Refund credits transfer id's total back to its account.
func (r *Refunds) Refund(ctx context.Context, id int64) error {
	t, err := r.transfer(ctx, r.DB, id)
	if err != nil {
		return fmt.Errorf("refund %d: %w", id, err)
	}
	if t.status != "pending" || t.total < 0 {
		return ErrNotRefundable
	}
	tx, err := r.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	again, err := r.transfer(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("refund %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE account_id = $2`, again.total, again.account); err != nil {
		return err
	}
	return tx.Commit()
}
