// Package sqlite_field_slice_loop_unsafe releases held stock. The request's
// lines are collected into a struct's slice field in one loop and released
// in another; nothing checks a line's amount, so a negative one raises the
// hold past the total.
package sqlite_field_slice_loop_unsafe

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Line is one line of a release request.
type Line struct {
	SKU    string
	Amount int64
}

// batch is the lines of one release.
type batch struct {
	Lines []Line
}

// Release gives back the held amount of each line.
func Release(ctx context.Context, db *sql.DB, lines []Line) error {
	b := batch{Lines: []Line{}}
	for _, l := range lines {
		b.Lines = append(b.Lines, l)
	}
	for _, l := range b.Lines {
		if _, err := db.ExecContext(ctx, `UPDATE stock SET held = held - ? WHERE sku = ?`, l.Amount, l.SKU); err != nil {
			return err
		}
	}
	return nil
}
