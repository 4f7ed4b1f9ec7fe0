// Package unsigned_sub_check_safe keeps stock counts in uint32 on the Go
// side and compares before it subtracts, so the subtraction cannot wrap
// around and the removal never exceeds the stock.
package unsigned_sub_check_safe

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
	if q > st {
		return ErrShort
	}
	left := st - q
	_, err := s.DB.ExecContext(ctx, `UPDATE shelves SET stock = $1 WHERE id = $2`, int64(left), id)
	return err
}
