// Package transfer_unsafe lets members gift points to each other.
package transfer_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrSameMember         = errors.New("loyalty: cannot transfer to yourself")
	ErrInsufficientPoints = errors.New("loyalty: not enough points")
)

const (
	debitSQL  = "UPDATE members SET points = points - ? WHERE id = ? AND points >= ?"
	creditSQL = "UPDATE members SET points = points + ? WHERE id = ?"
)

type Store struct {
	db *sql.DB
}

// Transfer moves amount points from fromID to toID; the debit only happens
// if the sender has enough points.
func (s *Store) Transfer(ctx context.Context, fromID, toID, amount int64) error {
	if fromID == toID {
		return ErrSameMember
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	res, err := tx.ExecContext(ctx, debitSQL, amount, fromID, amount)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return ErrInsufficientPoints
	}
	if _, err := tx.ExecContext(ctx, creditSQL, amount, toID); err != nil {
		return err
	}
	return tx.Commit()
}
