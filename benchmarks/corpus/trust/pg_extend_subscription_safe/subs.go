// Package subs extends subscriptions stored in PostgreSQL.
package subs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrTooShort rejects extensions under an hour.
var ErrTooShort = errors.New("subs: extension too short")

// Store is the subscription store.
type Store struct{ db *sql.DB }

// Open connects to dsn.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// Extend pushes the end of subscription id back by d.
func (s *Store) Extend(ctx context.Context, id int64, d time.Duration) error {
	if d < time.Hour {
		return ErrTooShort
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var start, end time.Time
	if err := tx.QueryRowContext(ctx,
		`SELECT starts_at, ends_at FROM subscriptions WHERE id = $1 FOR UPDATE`, id).Scan(&start, &end); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE subscriptions SET ends_at = $1 WHERE id = $2`, end.Add(d), id); err != nil {
		return err
	}
	return tx.Commit()
}
