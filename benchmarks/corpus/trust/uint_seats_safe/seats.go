// Package uint_seats_safe sells seats of an event. The count asked for is
// unsigned; the seats left are read into an int64 and compared as
// unsigned: uint(left) is left itself, for the column holds no value
// beyond int64's range and the constraint keeps it non-negative.
package uint_seats_safe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// ErrSoldOut is returned when fewer seats are left than asked for.
var ErrSoldOut = errors.New("seats: sold out")

// Seats is the box office.
type Seats struct{ DB *sql.DB }

// Sell takes n seats of event id.
func (s *Seats) Sell(ctx context.Context, id int64, n uint) error {
	var left int64
	if err := s.DB.QueryRowContext(ctx, `SELECT seats_left FROM events WHERE id = $1`, id).Scan(&left); err != nil {
		return err
	}
	if n > uint(left) {
		return ErrSoldOut
	}
	_, err := s.DB.ExecContext(ctx, `UPDATE events SET seats_left = $1 WHERE id = $2`, int64(uint(left)-n), id)
	return err
}
