// Package sqlite_text_guard_safe credits wallets of a SQLite app with
// amounts that arrive as form text, bound as Go strings. The guard
// "0 + ? > 0" (or CAST(? AS INTEGER) > 0) is arithmetic first: SQLite converts the text to its number
// ('-5' is -5, 'abc' is 0) as "balance + ?" does, so only a positive
// amount is added.
package sqlite_text_guard_safe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Wallet credits accounts.
type Wallet struct{ db *sql.DB }

// NewWallet returns a wallet over db.
func NewWallet(db *sql.DB) *Wallet { return &Wallet{db: db} }

// Credit adds amount to the account when the amount, as a number, is
// positive.
func (w *Wallet) Credit(ctx context.Context, id int64, amount string) error {
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + ? WHERE id = ? AND 0 + ? > 0`, amount, id, amount)
	return err
}

// Bonus adds bonus through iif when it is, cast to an integer, positive:
// CAST('0.5' AS INTEGER) is 0, and a positive cast is of a positive text.
func (w *Wallet) Bonus(ctx context.Context, id int64, bonus string) error {
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + iif(CAST(? AS INTEGER) > 0, ?, 0) WHERE id = ?`, bonus, bonus, id)
	return err
}
