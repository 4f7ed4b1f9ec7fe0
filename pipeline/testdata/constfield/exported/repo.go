// Package exported is repo's Debit with an exported table field, which
// code outside the package may set to anything.
package exported

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Repo changes balances of one table.
type Repo struct {
	DB    *sql.DB
	Table string
}

// NewWallets is the wallets repository.
func NewWallets(db *sql.DB) *Repo { return &Repo{DB: db, Table: "wallets"} }

// Debit takes amount if the balance covers it.
func (r *Repo) Debit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	q := fmt.Sprintf(`UPDATE %s SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, r.Table)
	_, err := r.DB.ExecContext(ctx, q, amount, id)
	return err
}
