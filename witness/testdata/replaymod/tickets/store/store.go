// Package store reads and writes events; it is used by package service.
package store

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Store holds the database.
type Store struct{ db *sql.DB }

// New returns a store of db.
func New(db *sql.DB) *Store { return &Store{db: db} }

// Begin opens a transaction.
func (s *Store) Begin(ctx context.Context) (*sql.Tx, error) { return s.db.BeginTx(ctx, nil) }

// AddSold adds n to the event's sold tickets.
func (s *Store) AddSold(ctx context.Context, tx *sql.Tx, id, n int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE events SET sold = sold + ? WHERE id = ?`, n, id)
	return err
}
