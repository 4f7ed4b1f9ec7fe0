// Package rows_two_branches_unsafe charges a monthly fee to one account or
// to all of them; the rows come from one of two queries.
package rows_two_branches_unsafe

import (
	"context"
	"database/sql"
)

const (
	selectAll = "SELECT id, balance FROM accounts"
	selectOne = "SELECT id, balance FROM accounts WHERE id = ?"
	chargeFee = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
)

// Store is the account repository.
type Store struct{ db *sql.DB }

// ChargeFee takes fee from account id, or from every account when all is
// set. Bug: it skips only overdrawn accounts, so a balance below the fee
// goes negative.
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
	type charge struct{ id, bal int64 }
	for rows.Next() {
		var c charge
		if err := rows.Scan(&c.id, &c.bal); err != nil {
			rows.Close()
			return err
		}
		if c.bal >= 0 {
			if _, err := tx.ExecContext(ctx, chargeFee, fee, c.id); err != nil {
				rows.Close()
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return tx.Commit()
}
