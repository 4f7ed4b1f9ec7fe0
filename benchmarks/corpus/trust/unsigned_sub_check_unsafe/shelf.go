// Package unsigned_sub_check_unsafe keeps stock counts in uint32 on the Go
// side and checks a withdrawal by subtracting: on unsigned integers
// st-q < 0 is never true (st-q wraps around), so nothing stops a removal
// larger than the stock.
package unsigned_sub_check_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// Shelves is the stock store.
type Shelves struct{ DB *sql.DB }

// ErrShort is returned when the shelf does not hold enough units.
var ErrShort = errors.New("shelf: not enough units")

// Take removes q units from shelf id.
func (s *Shelves) Take(ctx context.Context, id int64, q uint32) error {
	var st uint32
	if err := s.DB.QueryRowContext(ctx, `SELECT stock FROM shelves WHERE id = $1`, id).Scan(&st); err != nil {
		return err
	}
	if st-q < 0 { //lint:ignore SA4003 the unsigned check under test
		return ErrShort
	}
	_, err := s.DB.ExecContext(ctx, `UPDATE shelves SET stock = stock - $1 WHERE id = $2`, int64(q), id)
	return err
}
