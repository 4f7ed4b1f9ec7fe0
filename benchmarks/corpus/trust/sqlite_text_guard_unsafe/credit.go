// Package sqlite_text_guard_unsafe credits wallets of a SQLite app with
// amounts that arrive as form text, bound as Go strings. The guard "? > 0"
// compares the bound TEXT with the integer literal 0: neither operand is a
// column, so SQLite applies no numeric affinity, and TEXT sorts above every
// number — '-5' > 0 is true — while "balance + ?" converts '-5' to -5.
package sqlite_text_guard_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Wallet credits accounts.
type Wallet struct{ db *sql.DB }

// NewWallet returns a wallet over db.
func NewWallet(db *sql.DB) *Wallet { return &Wallet{db: db} }

// Credit adds amount to the account when the amount is positive: the
// text "-5" passes the guard and takes balance 0 to -5.
func (w *Wallet) Credit(ctx context.Context, id int64, amount string) error {
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + ? WHERE id = ? AND ? > 0`, amount, id, amount)
	return err
}

// Bonus adds bonus through iif when it is positive: iif('-5' > 0, '-5', 0)
// is '-5' too.
func (w *Wallet) Bonus(ctx context.Context, id int64, bonus string) error {
	_, err := w.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + iif(? > 0, ?, 0) WHERE id = ?`, bonus, bonus, id)
	return err
}
