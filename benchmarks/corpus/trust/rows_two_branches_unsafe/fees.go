// Package rows_two_branches_unsafe charges a fee to one account or to the
// richest one; the rows come from one of two queries.
package rows_two_branches_unsafe

import (
	"context"
	"database/sql"
)

const (
	selectAll = "SELECT id, balance FROM accounts ORDER BY balance DESC LIMIT 1"
	selectOne = "SELECT id, balance FROM accounts WHERE id = ?"
	chargeFee = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeFee takes fee from account id, or from the richest account when
// all is set. Bug: it skips only overdrawn accounts, so a balance below
// the fee goes negative.
func (s *Store) ChargeFee(ctx context.Context, id, fee int64, all bool) error {
	if fee <= 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows *sql.Rows
	if all {
		rows, err = tx.QueryContext(ctx, selectAll)
	} else {
		rows, err = tx.QueryContext(ctx, selectOne, id)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		return rows.Err()
	}
	var acct, bal int64
	if err := rows.Scan(&acct, &bal); err != nil {
		return err
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if bal >= 0 {
		if _, err := tx.ExecContext(ctx, chargeFee, fee, acct); err != nil {
			return err
		}
	}
	return tx.Commit()
}
