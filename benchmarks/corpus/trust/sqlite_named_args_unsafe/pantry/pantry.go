// Package pantry hands out items from shelves, binding its queries with
// sql.Named.
package pantry

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrBadCount = errors.New("pantry: count must be positive")
	ErrEmpty    = errors.New("pantry: not enough on the shelf")
)

// Pantry is the shelf store.
type Pantry struct{ db *sql.DB }

// Open opens the SQLite database at path.
func Open(path string) (*Pantry, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	return &Pantry{db: db}, nil
}

// HandOut takes count items of shelf shelf.
func (p *Pantry) HandOut(ctx context.Context, shelf, count int64) error {
	if count <= 0 {
		return ErrBadCount
	}
	res, err := p.db.ExecContext(ctx,
		`UPDATE shelves SET qty = qty - :take WHERE shelf_id = :shelf AND qty > 0`,
		sql.Named("shelf", shelf), sql.Named("take", count))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrEmpty
	}
	return nil
}

// Restock puts count items back on shelf shelf.
func (p *Pantry) Restock(ctx context.Context, shelf, count int64) error {
	if count <= 0 {
		return ErrBadCount
	}
	_, err := p.db.ExecContext(ctx,
		`UPDATE shelves SET qty = qty + @count WHERE shelf_id = @shelf`,
		sql.Named("count", count), sql.Named("shelf", shelf))
	return err
}
