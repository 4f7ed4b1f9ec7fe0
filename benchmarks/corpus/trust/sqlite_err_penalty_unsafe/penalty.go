// Package sqlite_err_penalty_unsafe charges a penalty for a refused
// withdrawal, in a deferred function. BUG: an invalid amount is charged
// the penalty too, before any balance was read.
package sqlite_err_penalty_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

var (
	// ErrInsufficient refuses a withdrawal the balance cannot pay with
	// its fee.
	ErrInsufficient = errors.New("insufficient funds")
	// ErrInvalid refuses an amount out of range.
	ErrInvalid = errors.New("invalid amount")
)

// Withdraw withdraws amount; a withdrawal refused with ErrInsufficient or
// ErrInvalid costs a penalty of 5 (amount 0 on a balance of 4: -1).
func Withdraw(ctx context.Context, db *sql.DB, id, amount int64) (err error) {
	defer func() {
		if errors.Is(err, ErrInsufficient) || errors.Is(err, ErrInvalid) {
			_, _ = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
		}
	}()
	if amount <= 0 || amount > 1000 {
		return ErrInvalid
	}
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 5 {
		return errors.New("balance too low to withdraw")
	}
	if bal < amount+5 {
		return ErrInsufficient
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}

func withdraw(ctx context.Context, db *sql.DB, id, amount int64) error {
	if amount <= 0 || amount > 1000 {
		return ErrInvalid
	}
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 5 {
		return errors.New("balance too low to withdraw")
	}
	if bal < amount+5 {
		return ErrInsufficient
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}

// WithdrawEq is Withdraw with the penalty after the call, tested with ==.
func WithdrawEq(ctx context.Context, db *sql.DB, id, amount int64) error {
	err := withdraw(ctx, db, id, amount)
	if err == ErrInsufficient || err == ErrInvalid {
		_, _ = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
	}
	return err
}
