// Package slice_same_index_unsafe applies a batch of debits.
package slice_same_index_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

// ErrBadDebit is returned for a debit with a non-positive amount or a
// negative fee.
var ErrBadDebit = errors.New("bank: bad debit")

const debitAccount = "UPDATE accounts SET balance = balance - ? - ? WHERE id = ? AND balance >= ?"

// Debit is one line of a batch.
type Debit struct {
	AccountID int64
	Amount    int64
	Fee       int64
}

// Store is the account repository.
type Store struct{ db *sql.DB }

// ApplyDebits debits every line of the batch (amount plus fee). Bug: the
// guard compares the balance with the amount only.
func (s *Store) ApplyDebits(ctx context.Context, debits []Debit) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i := range debits {
		if debits[i].Amount <= 0 || debits[i].Fee < 0 {
			return ErrBadDebit
		}
		if _, err := tx.ExecContext(ctx, debitAccount,
			debits[i].Amount, debits[i].Fee, debits[i].AccountID, debits[i].Amount); err != nil {
			return err
		}
	}
	return tx.Commit()
}
