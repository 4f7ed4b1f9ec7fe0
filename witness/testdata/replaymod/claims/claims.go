// Package claims hands out sign-up credits: a new address gets 1000 minus
// the claim's cost; an address already present pays the cost from its
// credits, whatever they are.
package claims

import (
	"context"
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Store is the credits table.
type Store struct{ DB *sql.DB }

func isDuplicate(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// Claim charges cost to email's credits, creating them when new.
func (s *Store) Claim(ctx context.Context, email string, cost int64) error {
	if cost < 0 || cost > 1000 {
		return errors.New("claims: cost out of range")
	}
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO credits (email, credits) VALUES (?, 1000 - ?)`, email, cost)
	if isDuplicate(err) {
		if _, err := tx.ExecContext(ctx, `UPDATE credits SET credits = credits - ? WHERE email = ?`, cost, email); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	return tx.Commit()
}
