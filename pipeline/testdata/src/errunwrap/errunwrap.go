// Package errunwrap tests errors by errors.Is through the program's own
// error types and against nil.
package errunwrap

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrOverLimit = errors.New("over limit")
	ErrInvalid   = errors.New("invalid amount")
)

const overdraftFee = 25

// fieldError names the field a validation error is about and unwraps to
// the sentinel that says what is wrong.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// plainError wraps nothing.
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

func checkTyped(bal, amt int64) error {
	if amt <= 0 {
		return &fieldError{field: "amount", err: ErrInvalid}
	}
	if amt > bal {
		return &fieldError{field: "amount", err: ErrOverLimit}
	}
	return nil
}

func checkPlain(bal, amt int64) error {
	if amt <= 0 || amt > bal {
		return &plainError{msg: "amount out of range"}
	}
	return nil
}

func checkPositive(amt int64) error {
	if amt <= 0 {
		return &fieldError{field: "amount", err: ErrInvalid}
	}
	return nil
}

func balance(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal)
	return bal, err
}

func debit(ctx context.Context, db *sql.DB, id, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// FeeOverLimit charges an overdraft fee when the withdrawal is over the
// limit: errors.Is sees ErrOverLimit through fieldError's Unwrap, and the
// fee takes a balance of 0 to -25 (UNSAFE).
func FeeOverLimit(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal, err := balance(ctx, db, id)
	if err != nil {
		return err
	}
	err = checkTyped(bal, amt)
	if errors.Is(err, ErrOverLimit) {
		if ferr := debit(ctx, db, id, overdraftFee); ferr != nil {
			return ferr
		}
		return err
	}
	if err != nil {
		return err
	}
	return debit(ctx, db, id, amt)
}

// WithdrawTyped refuses what checkTyped reports, by the sentinel each of
// its errors unwraps to (SAFE: every error it returns is one of them).
func WithdrawTyped(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal, err := balance(ctx, db, id)
	if err != nil {
		return err
	}
	err = checkTyped(bal, amt)
	if errors.Is(err, ErrInvalid) || errors.Is(err, ErrOverLimit) {
		return err
	}
	return debit(ctx, db, id, amt)
}

// WithdrawPlain charges the fee only for ErrOverLimit, which a plainError
// never is nor wraps (SAFE).
func WithdrawPlain(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal, err := balance(ctx, db, id)
	if err != nil {
		return err
	}
	err = checkPlain(bal, amt)
	if errors.Is(err, ErrOverLimit) {
		return debit(ctx, db, id, overdraftFee)
	}
	if err != nil {
		return err
	}
	return debit(ctx, db, id, amt)
}

// WithdrawIsNil withdraws when errors.Is(err, nil), that is err == nil
// (SAFE: checkTyped refuses what the balance does not cover).
func WithdrawIsNil(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal, err := balance(ctx, db, id)
	if err != nil {
		return err
	}
	if err := checkTyped(bal, amt); !errors.Is(err, nil) {
		return err
	}
	return debit(ctx, db, id, amt)
}

// DebitIsNil debits when errors.Is(err, nil) — true for the nil error
// checkPositive returns for any positive amount, whatever the balance
// (UNSAFE).
func DebitIsNil(ctx context.Context, db *sql.DB, id, amt int64) error {
	if err := checkPositive(amt); errors.Is(err, nil) {
		return debit(ctx, db, id, amt)
	}
	return nil
}

// reasonError is fieldError's twin whose reason Escalate rewrites.
type reasonError struct {
	field string
	err   error
}

func (e *reasonError) Error() string { return e.field + ": " + e.err.Error() }
func (e *reasonError) Unwrap() error { return e.err }

// Escalate turns an invalid-amount error into an over-limit one after it
// is made, through a type assertion, and charges the fee for it: the
// field Unwrap returns is not the one the literal stored (UNSAFE, and
// never SAFE).
func Escalate(ctx context.Context, db *sql.DB, id int64) error {
	err := error(&reasonError{field: "amount", err: ErrInvalid})
	if re, ok := err.(*reasonError); ok {
		re.err = ErrOverLimit
	}
	if errors.Is(err, ErrOverLimit) {
		return debit(ctx, db, id, overdraftFee)
	}
	return err
}
