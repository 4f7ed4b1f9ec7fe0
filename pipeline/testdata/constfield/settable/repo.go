// Package settable is repo's Debit where a method stores any string into
// the table field: the SQL text is not one of a few constants.
package settable

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

// Use switches the repository to another table.
func (r *Repo) Use(table string) { r.table = table }

// Debit takes amount if the balance covers it.
func (r *Repo) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, r.table)
	_, err := r.db.ExecContext(ctx, q, amount, id)
	return err
}
