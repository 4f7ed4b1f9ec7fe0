// Package repo stores loyalty points; its repository is made by FromDB.
package repo

import (
	"context"
	"database/sql"

	_ "modernc.org/sqlite"
)

// Repo holds the database.
type Repo struct {
	db *sql.DB
}

// FromDB wraps db.
func FromDB(db *sql.DB) *Repo { return &Repo{db: db} }

// Spend takes points from the member.
func (r *Repo) Spend(ctx context.Context, id, points int64) error {
	_, err := r.db.ExecContext(ctx, `UPDATE members SET points = points - ? WHERE id = ?`, points, id)
	return err
}
