// Package uint_seats_unsafe sells seats of an event, comparing the count
// asked for with the seats left as 32-bit numbers: 4294967297 seats pass
// as 1, and uint(left)-n wraps around to a negative seats_left.
package uint_seats_unsafe

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
	if uint32(n) > uint32(left) {
		return ErrSoldOut
	}
	_, err := s.DB.ExecContext(ctx, `UPDATE events SET seats_left = $1 WHERE id = $2`, int64(uint(left)-n), id)
	return err
}
