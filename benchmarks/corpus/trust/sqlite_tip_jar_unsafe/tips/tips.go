// Package tips moves tips between viewers' balances (in cents).
package tips

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var (
	ErrBadAmount = errors.New("tips: amount must be positive")
	ErrNoFunds   = errors.New("tips: balance too low")
)

// Jar is the tip store.
type Jar struct{ db *sql.DB }

// Open opens the SQLite database at path (the driver is registered by the
// command).
func Open(path string) (*Jar, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	return &Jar{db: db}, nil
}

// Tip moves amount cents from viewer from to streamer to, creating the
// streamer's balance row on the first tip. The debit only asks for a
// positive balance: 50 cents tipping 100 leave -50.
func (j *Jar) Tip(ctx context.Context, from, to, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`UPDATE balances SET cents = cents - ? WHERE user_id = ? AND cents > 0`, amount, from)
	if err != nil {
		return fmt.Errorf("tip: debit: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNoFunds
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT OR IGNORE INTO balances (user_id, cents) VALUES (?, 0)`, to); err != nil {
		return fmt.Errorf("tip: open balance: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE balances SET cents = cents + ? WHERE user_id = ?`, amount, to); err != nil {
		return fmt.Errorf("tip: credit: %w", err)
	}
	return tx.Commit()
}
