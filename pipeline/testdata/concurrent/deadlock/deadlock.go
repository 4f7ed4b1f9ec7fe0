// Package deadlock has the lock orders of the deadlock finding: a
// transfer that locks its source row and then its destination (prone),
// the same locking both rows first in id order (ordered) and a shared
// lock upgraded to an exclusive one (upgrade); ./retried retries on the
// deadlock error.
package deadlock

import (
	"context"
	"database/sql"
	"errors"
)

type Bank struct{ db *sql.DB }

var (
	ErrFunds = errors.New("insufficient funds")
	ErrBad   = errors.New("bad transfer")
)

// Prone locks fromID, then toID: transfers 1→2 and 2→1 deadlock.
func (b *Bank) Prone(ctx context.Context, fromID, toID, amount int64) error {
	if amount <= 0 || fromID == toID {
		return ErrBad
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", fromID).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return ErrFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, fromID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, toID); err != nil {
		return err
	}
	return tx.Commit()
}

// Ordered locks both rows in id order first: no deadlock.
func (b *Bank) Ordered(ctx context.Context, fromID, toID, amount int64) error {
	if amount <= 0 || fromID == toID {
		return ErrBad
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, "SELECT id FROM accounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE", fromID, toID)
	if err != nil {
		return err
	}
	rows.Close()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, toID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, fromID); err != nil {
		return err
	}
	return tx.Commit()
}

// Upgrade reads the row under a shared lock and then updates it: two
// requests that both hold the shared lock deadlock on the upgrade.
func (b *Bank) Upgrade(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBad
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR SHARE", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amount {
		return ErrFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); err != nil {
		return err
	}
	return tx.Commit()
}

// withTx runs fn in a transaction, committed when fn returns nil.
func (b *Bank) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Captured locks the row of id, then updates the same row, in a closure
// that captures id: one row, no lock order.
func (b *Bank) Captured(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBad
	}
	return b.withTx(ctx, func(tx *sql.Tx) error {
		var bal int64
		if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&bal); err != nil {
			return err
		}
		if bal < amount {
			return ErrFunds
		}
		_, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, bal-amount, id)
		return err
	})
}

// Moved is Captured with id moved to toID between the two statements:
// the second locks another row (transfers 1→2 and 2→1 deadlock).
func (b *Bank) Moved(ctx context.Context, id, toID, amount int64) error {
	if amount <= 0 || id == toID {
		return ErrBad
	}
	return b.withTx(ctx, func(tx *sql.Tx) error {
		var bal int64
		if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&bal); err != nil {
			return err
		}
		if bal < amount {
			return ErrFunds
		}
		id = toID
		_, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amount, id)
		return err
	})
}
