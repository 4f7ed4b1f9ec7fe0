// Package errident: tests of an error's identity (err == S, errors.Is,
// errors.Join) after paths that return different errors (adv15 F1, F2).
package errident

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInsufficient = errors.New("insufficient funds")
	ErrInvalid      = errors.New("invalid amount")
)

// PenaltyDeferSafe charges a 5 penalty, guarded by the failed withdrawal
// having seen balance >= 5.
func PenaltyDeferSafe(ctx context.Context, db *sql.DB, id, amount int64) (err error) {
	defer func() {
		if errors.Is(err, ErrInsufficient) {
			db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
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

// PenaltyIsSafe is PenaltyDeferSafe with the penalty after the call.
func PenaltyIsSafe(ctx context.Context, db *sql.DB, id, amount int64) error {
	err := withdraw(ctx, db, id, amount)
	if errors.Is(err, ErrInsufficient) {
		db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
	}
	return err
}

// PenaltyEqSafe compares with == instead of errors.Is.
func PenaltyEqSafe(ctx context.Context, db *sql.DB, id, amount int64) error {
	err := withdraw(ctx, db, id, amount)
	if err == ErrInsufficient {
		db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
	}
	return err
}

// PenaltyInvalidUnsafe charges the penalty for ErrInvalid, which withdraw
// returns before it reads the balance: amount 0 on balance 4 ends at -1.
func PenaltyInvalidUnsafe(ctx context.Context, db *sql.DB, id, amount int64) error {
	err := withdraw(ctx, db, id, amount)
	if errors.Is(err, ErrInvalid) {
		db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 5 WHERE id = ?`, id)
	}
	return err
}

// PenaltyWrappedEqSafe: a wrapped ErrInsufficient is never == it, so the
// unguarded penalty is dead.
func PenaltyWrappedEqSafe(ctx context.Context, db *sql.DB, id, amount int64) error {
	err := withdraw(ctx, db, id, amount)
	if err != nil {
		err = fmtWrap(err)
	}
	if err == ErrInsufficient {
		db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 1000 WHERE id = ?`, id)
	}
	return err
}

// JoinSafe collects validation errors with errors.Join; with none, it
// withdraws.
func JoinSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	var errs []error
	if amt <= 0 {
		errs = append(errs, errors.New("amount must be positive"))
	}
	if amt > bal {
		errs = append(errs, errors.New("insufficient funds"))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}

// JoinInvertedSafe does the write when errors.Join reports no error.
func JoinInvertedSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	var errs []error
	if amt > bal {
		errs = append(errs, errors.New("insufficient funds"))
	}
	if errors.Join(errs...) == nil && amt > 0 {
		_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
		return err
	}
	return nil
}

// JoinMissingCheckUnsafe validates only the amount's sign: with no error
// collected it withdraws more than the balance.
func JoinMissingCheckUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var errs []error
	if amt <= 0 {
		errs = append(errs, errors.New("amount must be positive"))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}

var ErrOverLimit = errors.New("over limit")

// JoinOverLimitUnsafe charges an overdraft fee of 25 when validation
// reports ErrOverLimit (amt > bal): balance 1, amt 2 ends at -24.
func JoinOverLimitUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	var errs []error
	if amt <= 0 {
		errs = append(errs, errors.New("amount must be positive"))
	}
	if amt > bal {
		errs = append(errs, ErrOverLimit)
	}
	err := errors.Join(errs...)
	if errors.Is(err, ErrOverLimit) {
		_, ferr := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 25 WHERE id = ?`, id)
		return errors.Join(err, ferr)
	}
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}

// JoinOverLimitSafe charges the fee only where the balance covers it.
func JoinOverLimitSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal int64
	if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal); err != nil {
		return err
	}
	var errs []error
	if amt <= 0 {
		errs = append(errs, errors.New("amount must be positive"))
	}
	if amt > bal {
		errs = append(errs, ErrOverLimit)
	}
	err := errors.Join(errs...)
	if errors.Is(err, ErrOverLimit) && bal >= 25 {
		_, ferr := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - 25 WHERE id = ?`, id)
		return errors.Join(err, ferr)
	}
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amt, id)
	return err
}
