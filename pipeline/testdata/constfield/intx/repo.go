// Package intx is repo's Debit run in a transaction: the zero value's
// text would fail there and leave the transaction aborted, which the
// model of a rejected text does not say, so it stays unsupported.
package intx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Repo changes balances of one table.
type Repo struct {
	db    *sql.DB
	table string
}

// NewWallets is the wallets repository.
func NewWallets(db *sql.DB) *Repo { return &Repo{db: db, table: "wallets"} }

// Debit takes amount if the balance covers it.
func (r *Repo) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, r.table)
	if _, err := tx.ExecContext(ctx, q, amount, id); err != nil {
		return err
	}
	return tx.Commit()
}
