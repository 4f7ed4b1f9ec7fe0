// Package sqlite_err_penalty_safe charges a penalty for a refused
// withdrawal, in a deferred function, only when the refusal is
// ErrInsufficient.
package sqlite_err_penalty_safe

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

// Withdraw withdraws amount; a withdrawal refused with ErrInsufficient
// costs a penalty of 5, which a balance of at least 5 pays.
func Withdraw(ctx context.Context, db *sql.DB, id, amount int64) (err error) {
	defer func() {
		if errors.Is(err, ErrInsufficient) {
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
	if err == ErrInsufficient {
		_, _ = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
	}
	return err
}
