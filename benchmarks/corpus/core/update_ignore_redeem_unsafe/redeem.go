// Package update_ignore_redeem_unsafe redeems loyalty points with MySQL's
// UPDATE IGNORE (a redemption that cannot apply is skipped, not an
// error), but without the guard that the wallet holds enough
// points: the redemption overdraws it.
package update_ignore_redeem_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Wallets is the loyalty wallet repository.
type Wallets struct{ db *sql.DB }

// Redeem takes amount points from wallet id; it reports whether the
// redemption applied.
func (w *Wallets) Redeem(ctx context.Context, id, amount int64) (bool, error) {
	if amount <= 0 {
		return false, nil
	}
	res, err := w.db.ExecContext(ctx, "UPDATE IGNORE wallets SET points = points - ? WHERE id = ?", amount, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
