// Package escape has statements on the pool inside and around
// transactions: only those run while a transaction is surely open are
// tx-escapes.
package escape

import (
	"context"
	"database/sql"
)

// Ledger is the account store.
type Ledger struct{ db *sql.DB }

// Debit logs the debit through the pool inside its transaction: the
// audit row commits even if the debit rolls back.
func (l *Ledger) Debit(ctx context.Context, id, amount int64) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		// The transaction did not begin: the pool is all there is.
		_, _ = l.db.ExecContext(ctx, "INSERT INTO audit (account_id, note) VALUES ($1, 'begin failed')", id)
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id); err != nil {
		return err
	}
	l.audit(ctx, id) // escapes: runs on the pool
	return tx.Commit()
}

func (l *Ledger) audit(ctx context.Context, id int64) {
	_, _ = l.db.ExecContext(ctx, "INSERT INTO audit (account_id, note) VALUES ($1, 'debit')", id)
}

// Credit commits, then logs through the pool: not an escape.
func (l *Ledger) Credit(ctx context.Context, id, amount int64) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = l.db.ExecContext(ctx, "INSERT INTO audit (account_id, note) VALUES ($1, 'credit')", id)
	return err
}

// Fee commits on one path only before the pool statement: the
// transaction may be open there, but not surely; no finding.
func (l *Ledger) Fee(ctx context.Context, id int64, early bool) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + 0 WHERE id = $1", id); err != nil {
		_ = tx.Rollback()
		return err
	}
	if early {
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	_, err = l.db.ExecContext(ctx, "INSERT INTO audit (account_id, note) VALUES ($1, 'fee')", id)
	if !early {
		return tx.Commit()
	}
	return err
}
