// Package rollback_autocommit_unsafe charges an account and records the
// order in one transaction, retrying once when recording fails.
package rollback_autocommit_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var ErrInsufficientFunds = errors.New("shop: insufficient funds")

const (
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
	chargeAccount = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	insertOrder   = "INSERT INTO orders (account_id, amount) VALUES (?, ?)"
)

// Shop sells to account holders.
type Shop struct{ db *sql.DB }

// Purchase charges price to account id once the balance covers it.
func (s *Shop) Purchase(ctx context.Context, id, price int64) error {
	if price <= 0 {
		return errors.New("shop: bad price")
	}
	var bal int64
	if err := s.db.QueryRowContext(ctx, selectBalance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < price {
		return ErrInsufficientFunds
	}
	if err := s.charge(ctx, id, price); err == nil {
		return nil
	}
	// The first attempt was rolled back: try once more.
	return s.charge(ctx, id, price)
}

func (s *Shop) charge(ctx context.Context, id, price int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	// BUG: the charge runs on s.db, not on tx: it commits at once, and the
	// rollback below does not undo it, so the retry charges twice.
	if _, err := s.db.ExecContext(ctx, chargeAccount, price, id); err != nil {
		tx.Rollback()
		return err
	}
	if _, err := tx.ExecContext(ctx, insertOrder, id, price); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
