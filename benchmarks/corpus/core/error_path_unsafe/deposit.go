// Package error_path_unsafe records incoming payments and credits accounts.
package error_path_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

var ErrInvalidAmount = errors.New("payments: amount must be positive")

const (
	bounceFee     = 25
	insertPayment = "INSERT INTO payments (account_id, amount) VALUES (?, ?)"
	creditAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	chargeBounce  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the payments repository.
type Store struct{ db *sql.DB }

// Deposit records an incoming payment of amt for account id and credits it.
// A payment that cannot be recorded counts as bounced and costs a fee.
func (s *Store) Deposit(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrInvalidAmount
	}
	if _, err := s.db.ExecContext(ctx, insertPayment, id, amt); err != nil {
		if _, ferr := s.db.ExecContext(ctx, chargeBounce, bounceFee, id); ferr != nil {
			return fmt.Errorf("deposit bounced (%v); fee not charged: %w", err, ferr)
		}
		return fmt.Errorf("deposit bounced: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, creditAccount, amt, id); err != nil {
		return fmt.Errorf("credit account %d: %w", id, err)
	}
	return nil
}
