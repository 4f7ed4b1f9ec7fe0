// Package ozzo_by_safe reserves funds for a payment request validated by
// ozzo-validation, whose amount rule is a function of the package:
// By(positive) rejects every amount <= 0, so reserved only grows.
package ozzo_by_safe

import (
	"context"
	"database/sql"
	"errors"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	_ "github.com/lib/pq"
)

// Request is a payment request.
type Request struct {
	User   int64
	Amount int64
}

func positive(v interface{}) error {
	if n, _ := v.(int64); n <= 0 {
		return errors.New("amount must be positive")
	}
	return nil
}

// Validate checks the request.
func (r Request) Validate() error {
	return validation.ValidateStruct(&r,
		validation.Field(&r.Amount, validation.Required, validation.By(positive)))
}

// Reserve moves the amount from available to reserved.
func Reserve(ctx context.Context, db *sql.DB, r Request) error {
	if err := r.Validate(); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx,
		`UPDATE balance SET available = available - $1, reserved = reserved + $1 WHERE user_id = $2 AND available >= $1`,
		r.Amount, r.User)
	return err
}

// LimitRequest is a payment request whose rule is a closure over a
// bound, which the model does not analyse.
type LimitRequest struct {
	User   int64
	Amount int64
}

// Validate checks the request against a lower bound held in a variable.
func (r LimitRequest) Validate() error {
	least := int64(1)
	return validation.ValidateStruct(&r,
		validation.Field(&r.Amount, validation.Required, validation.By(func(v interface{}) error {
			if n, _ := v.(int64); n < least {
				return errors.New("amount below the least")
			}
			return nil
		})))
}

// ReserveAtLeast moves the amount from available to reserved.
func ReserveAtLeast(ctx context.Context, db *sql.DB, r LimitRequest) error {
	if err := r.Validate(); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx,
		`UPDATE balance SET available = available - $1, reserved = reserved + $1 WHERE user_id = $2 AND available >= $1`,
		r.Amount, r.User)
	return err
}
