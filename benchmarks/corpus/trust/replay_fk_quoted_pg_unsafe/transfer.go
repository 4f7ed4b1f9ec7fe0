// Package replay_fk_quoted_pg_unsafe moves money between accounts on
// PostgreSQL and logs each transfer in a table declared with a quoted,
// mixed-case name ("transferLog") whose columns reference both accounts.
// The amount is never checked against the balance: a transfer overdraws.
// (Replay: the counterexample lists the debited account only, so the
// credited account, which the log row references, must be seeded for the
// INSERT to pass its foreign key; and resetting the tables must quote
// "transferLog".)
package replay_fk_quoted_pg_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrBadTransfer is returned for a transfer to the account it debits or
// of an amount that is not positive.
var ErrBadTransfer = errors.New("bad transfer")

// Transfer moves amount from one account to another.
func Transfer(ctx context.Context, db *sql.DB, from, to, amount int64) error {
	if from == to || amount <= 0 {
		return ErrBadTransfer
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO "transferLog" ("fromAccount", "toAccount", amount) VALUES ($1, $2, $3)`, from, to, amount); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, to); err != nil {
		return err
	}
	return tx.Commit()
}
