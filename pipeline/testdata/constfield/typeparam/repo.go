// Package typeparam is repo's Debit with the table a field of the type
// parameter's type, which generic code may set to any value.
package typeparam

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Repo changes balances of one table.
type Repo[T ~string] struct {
	db    *sql.DB
	table T
}

// NewWallets is the wallets repository.
func NewWallets(db *sql.DB) *Repo[string] { return &Repo[string]{db: db, table: "wallets"} }

// Use switches the repository to another table.
func (r *Repo[T]) Use(table T) { r.table = table }

// Debit takes amount if the balance covers it.
func (r *Repo[T]) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, r.table)
	_, err := r.db.ExecContext(ctx, q, amount, id)
	return err
}
