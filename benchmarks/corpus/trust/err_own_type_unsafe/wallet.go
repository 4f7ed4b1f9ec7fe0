// Package err_own_type_unsafe validates withdrawals with its own error
// type, which unwraps to the sentinel that says what is wrong.
package err_own_type_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

var (
	// ErrInvalid is wrapped for an amount that is not positive.
	ErrInvalid = errors.New("wallet: invalid amount")
	// ErrOverLimit is wrapped for an amount above the balance.
	ErrOverLimit = errors.New("wallet: over limit")
)

// OpError says which operation failed, and why (Err).
type OpError struct {
	Op  string
	Err error
}

func (e *OpError) Error() string { return e.Op + ": " + e.Err.Error() }

// Unwrap lets errors.Is see the reason.
func (e *OpError) Unwrap() error { return e.Err }

func validate(bal, amt int64) error {
	if amt <= 0 {
		return &OpError{Op: "withdraw", Err: ErrInvalid}
	}
	if amt > bal {
		return &OpError{Op: "withdraw", Err: ErrOverLimit}
	}
	return nil
}

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Withdraw takes amt from account id. BUG: it refuses only what unwraps
// to ErrInvalid; an amount over the balance (ErrOverLimit) is taken.
func (s *Store) Withdraw(ctx context.Context, id, amt int64) error {
	var bal int64
	if err := s.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	err := validate(bal, amt)
	if errors.Is(err, ErrInvalid) {
		return err
	}
	_, err = s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id)
	return err
}
