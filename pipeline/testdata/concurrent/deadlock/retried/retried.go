// Package retried is a transfer in a deadlock-prone lock order whose
// caller retries on the deadlock error (40P01): no finding.
package retried

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

type Bank struct{ db *sql.DB }

var ErrBad = errors.New("bad transfer")

// Transfer retries transfer while it fails with a deadlock.
func (b *Bank) Transfer(ctx context.Context, fromID, toID, amount int64) error {
	for {
		err := b.transfer(ctx, fromID, toID, amount)
		if err == nil || !strings.Contains(err.Error(), "40P01") {
			return err
		}
	}
}

func (b *Bank) transfer(ctx context.Context, fromID, toID, amount int64) error {
	if amount <= 0 || fromID == toID {
		return ErrBad
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, fromID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, toID); err != nil {
		return err
	}
	return tx.Commit()
}
