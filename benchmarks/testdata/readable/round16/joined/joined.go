// Package joined charges a wallet for a product through one UPDATE …
// FROM that joins the product's price by its TEXT key, and checks the
// balance against one unit only.
package joined

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrFunds is returned when no row was charged.
var ErrFunds = errors.New("insufficient funds")

// Buy charges the wallet for qty units of sku.
func Buy(ctx context.Context, db *sql.DB, wallet int64, sku string, qty int64) error {
	if qty <= 0 || qty > 100 {
		return errors.New("bad qty")
	}
	res, err := db.ExecContext(ctx, `UPDATE wallets w SET balance = w.balance - p.price * $2
FROM prices p WHERE p.sku = $1 AND w.id = $3 AND w.balance >= p.price`, sku, qty, wallet)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrFunds
	}
	return nil
}
