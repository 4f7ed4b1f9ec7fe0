// Package funcphi calls a function value chosen in a switch
// (pipeline's TestFuncChosenInSwitch; adv16 dispatch.ApplyUser).
package funcphi

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

type opFunc func(ctx context.Context, db *sql.DB, id, amt int64) error

var ErrFunds = errors.New("insufficient funds")

func credit(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, "UPDATE wallets SET balance = balance + $1 WHERE id = $2", amt, id)
	return err
}

func debit(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	res, err := db.ExecContext(ctx, "UPDATE wallets SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amt, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrFunds
	}
	return nil
}

func chargeback(ctx context.Context, db *sql.DB, id, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE wallets SET balance = balance - $1 WHERE id = $2", amt, id)
	return err
}

// ApplyUser runs the operation of a user-facing kind: SAFE.
func ApplyUser(ctx context.Context, db *sql.DB, kind string, id, amt int64) error {
	var op opFunc
	switch kind {
	case "deposit":
		op = credit
	case "withdraw", "pay":
		op = debit
	default:
		return fmt.Errorf("kind %q not allowed", kind)
	}
	return op(ctx, db, id, amt)
}

// ApplyAdmin also offers chargebacks, which debit without a check:
// UNSAFE, on the chargeback branch only.
func ApplyAdmin(ctx context.Context, db *sql.DB, kind string, id, amt int64) error {
	op := credit
	if kind == "chargeback" {
		op = chargeback
	}
	return op(ctx, db, id, amt)
}

// ApplyMaybe may call a nil function (no case matched): the call panics
// there, and the deposit branch is SAFE.
func ApplyMaybe(ctx context.Context, db *sql.DB, kind string, id, amt int64) error {
	var op opFunc
	if kind == "deposit" {
		op = credit
	}
	return op(ctx, db, id, amt)
}
