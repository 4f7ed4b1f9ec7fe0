// Package pg_update_from_price_safe pays a catalogue price in points with
// one UPDATE … FROM that joins the price row.
package pg_update_from_price_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrCannotBuy is returned when the wallet cannot pay (or the sku is unknown).
var ErrCannotBuy = errors.New("cannot buy")

// Shop sells catalogue items for points.
type Shop struct{ db *sql.DB }

// Buy pays the price of sku from userID's wallet; the WHERE compares the
// wallet with the very price it subtracts.
func (s *Shop) Buy(ctx context.Context, userID int64, sku string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE wallets w SET points = w.points - p.cost
		FROM prices p WHERE p.sku = $2 AND w.user_id = $1 AND w.points >= p.cost`, userID, sku)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return ErrCannotBuy
	}
	return nil
}
