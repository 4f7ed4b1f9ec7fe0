// Package store holds the Ledger the server uses: no guard.
package store

import (
	"context"
	"database/sql"
)

type Loose struct{ DB *sql.DB }

func (l *Loose) Debit(ctx context.Context, id, amt int64) error {
	_, err := l.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}
