// Package orderdep has handlers of one accounts table whose effects
// depend on the order two requests run in (order-dependence findings)
// and handlers whose effects commute (none).
package orderdep

import (
	"context"
	"database/sql"
	"errors"
)

// Store is the account store.
type Store struct{ db *sql.DB }

var (
	errAmount  = errors.New("amount must be positive")
	errState   = errors.New("the account is not open")
	errVIPOnly = errors.New("only account 1 is doubled")
)

// Deposit adds to the balance (a relative write: two deposits commute).
func (s *Store) Deposit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errAmount
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id)
	return err
}

// Withdraw takes from the balance, relative and unguarded: it commutes
// with Deposit (and breaks balance >= 0, which is not the point here).
func (s *Store) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errAmount
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id)
	return err
}

// Double doubles account 1's balance: with a deposit, doubling first
// gives 2b+a, depositing first 2b+2a.
func (s *Store) Double(ctx context.Context, id int64) error {
	if id != 1 {
		return errVIPOnly
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance * 2 WHERE id = $1", id)
	return err
}

// DepositOther deposits into any account but 1: it never writes the row
// Double writes, so the two commute.
func (s *Store) DepositOther(ctx context.Context, id, amount int64) error {
	if id == 1 {
		return errors.New("account 1 takes deposits through Deposit")
	}
	if amount <= 0 {
		return errAmount
	}
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, id)
	return err
}

// SetBalance writes the balance absolutely (a correction): with a
// deposit, the one that runs last wins.
func (s *Store) SetBalance(ctx context.Context, id, balance int64) error {
	if balance < 0 {
		return errAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", balance, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Ship moves an open account to 'shipped' and does not check that it
// was open: after Cancel it does nothing and still succeeds.
func (s *Store) Ship(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET status = 'shipped' WHERE id = $1 AND status = 'open'", id)
	return err
}

// Cancel moves an open account to 'cancelled', unchecked like Ship: the
// first of the two to run decides the final status.
func (s *Store) Cancel(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET status = 'cancelled' WHERE id = $1 AND status = 'open'", id)
	return err
}

// Close moves an open account to 'closed' and fails if it was not open:
// against Ship or Cancel it fails when it runs second, so the two never
// both succeed in both orders.
func (s *Store) Close(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET status = 'closed' WHERE id = $1 AND status = 'open'", id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return errState
	}
	return nil
}
