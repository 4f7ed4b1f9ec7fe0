// Package panic_mustexec_safe moves money between accounts with sqlx's
// Must helpers inside a transaction committed by a deferred function.
package panic_mustexec_safe

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
)

// ErrInsufficientFunds is returned when the source account cannot pay.
var ErrInsufficientFunds = errors.New("bank: insufficient funds")

const (
	debitAccount  = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	creditAccount = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	selectBalance = "SELECT balance FROM accounts WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sqlx.DB }

// Transfer moves amt from one account to another and checks the source
// balance before returning. A failed MustExecContext panics; the deferred
// function rolls the transaction back before the panic goes on.
func (s *Store) Transfer(ctx context.Context, from, to, amt int64) (err error) {
	if amt <= 0 || from == to {
		return errors.New("bank: bad transfer")
	}
	tx := s.db.MustBeginTx(ctx, nil)
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	tx.MustExecContext(ctx, debitAccount, amt, from)
	tx.MustExecContext(ctx, creditAccount, amt, to)
	var bal int64
	if err = tx.GetContext(ctx, &bal, selectBalance, from); err != nil {
		return err
	}
	if bal < 0 {
		return ErrInsufficientFunds
	}
	return nil
}
