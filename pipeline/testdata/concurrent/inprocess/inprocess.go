// Package inprocess debits wallets under an in-process mutex: it orders
// the debits of one process, not those of two instances of the service.
package inprocess

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// Wallets debits wallets.
type Wallets struct {
	mu sync.Mutex
	db *sql.DB
}

// Debit takes amount under the service's mutex.
func (w *Wallets) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var bal int64
	if err := w.db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return errors.New("insufficient")
	}
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, amount, id)
	return err
}
