// Package tickets sells seats on SQLite. The SQL lives in .sql files next
// to the code, embedded with //go:embed: one into a string variable, the
// others read from an embed.FS.
package tickets

import (
	"context"
	"database/sql"
	"embed"
	"errors"

	_ "modernc.org/sqlite"
)

//go:embed queries/free.sql
var freeSQL string

//go:embed queries
var queries embed.FS

// ErrSoldOut is returned when too few seats are left.
var ErrSoldOut = errors.New("sold out")

// Sell sells n seats of an event if that many are free.
func Sell(ctx context.Context, db *sql.DB, event, n int64) error {
	if n <= 0 || n > 10 {
		return errors.New("bad count")
	}
	var free int64
	if err := db.QueryRowContext(ctx, freeSQL, event).Scan(&free); err != nil {
		return err
	}
	if free < n {
		return ErrSoldOut
	}
	sell, err := queries.ReadFile("queries/sell.sql")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, string(sell), n, event)
	return err
}
