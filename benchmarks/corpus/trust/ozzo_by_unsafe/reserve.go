// Package ozzo_by_unsafe reserves funds for a payment request validated
// by ozzo-validation, whose amount rule is a function of the package:
// By(nonZero) rejects only 0, so an amount of -1 lowers reserved below 0.
package ozzo_by_unsafe

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

func nonZero(v interface{}) error {
	if n, _ := v.(int64); n == 0 {
		return errors.New("amount must not be zero")
	}
	return nil
}

// Validate checks the request.
func (r Request) Validate() error {
	return validation.ValidateStruct(&r,
		validation.Field(&r.Amount, validation.Required, validation.By(nonZero)))
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
