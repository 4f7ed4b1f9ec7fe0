// Package mysql_update_join_price_unsafe pays a catalogue price in points
// with one multi-table UPDATE that joins the price row.
package mysql_update_join_price_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrCannotBuy is returned when the wallet cannot pay (or the sku is unknown).
var ErrCannotBuy = errors.New("cannot buy")

// Shop sells catalogue items for points.
type Shop struct{ db *sql.DB }

// Buy pays the price of sku from userID's wallet. Bug: the WHERE only
// asks for a positive balance, not one that covers the price.
func (s *Shop) Buy(ctx context.Context, userID int64, sku string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE wallets w JOIN prices p ON p.sku = ?
		SET w.points = w.points - p.cost WHERE w.user_id = ? AND w.points > 0`, sku, userID)
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
