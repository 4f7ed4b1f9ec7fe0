// Package pg_update_self_join_unsafe debits and sweeps accounts with PostgreSQL UPDATE … FROM joining the accounts table itself; the debit's guard reads the wrong row.
package pg_update_self_join_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrFunds is returned when a transfer cannot be made.
var ErrFunds = errors.New("insufficient funds")

// Transfer moves amt from one account to another: the debit joins the
// destination's row, which must exist. Bug: the guard reads b, the destination, not the debited row a.
func Transfer(ctx context.Context, db *sql.DB, from, to, amt int64) error {
	if amt <= 0 || from == to {
		return ErrFunds
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE accounts a SET balance = a.balance - $3
FROM accounts b WHERE a.id = $1 AND b.id = $2 AND b.balance >= $3`, from, to, amt)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrFunds
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amt, to); err != nil {
		return err
	}
	return tx.Commit()
}

// Sweep moves the whole balance of account from into account into.
func Sweep(ctx context.Context, db *sql.DB, into, from int64) error {
	if into == from {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE accounts a SET balance = a.balance + b.balance
FROM accounts b WHERE a.id = $1 AND b.id = $2`, into, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", from); err != nil {
		return err
	}
	return tx.Commit()
}
