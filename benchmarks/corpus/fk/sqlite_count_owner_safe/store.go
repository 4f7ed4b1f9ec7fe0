// Package sqlite_count_owner_safe registers pets for the owners of a
// veterinary clinic on SQLite, with no FOREIGN KEY: the handlers check
// that the owner exists with an aggregate before they insert the pet.
package sqlite_count_owner_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

var ErrNoOwner = errors.New("clinic: no such owner")

// Clinic is the owner and pet repository.
type Clinic struct{ db *sql.DB }

func NewClinic(db *sql.DB) *Clinic { return &Clinic{db: db} }

// AddPet registers pet petID for owner ownerID, once it has counted the
// owner.
func (c *Clinic) AddPet(ctx context.Context, ownerID, petID int64, name string) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM owners WHERE id = ?", ownerID).Scan(&n); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	if n == 0 {
		return ErrNoOwner
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES (?, ?, ?)", petID, ownerID, name); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	return tx.Commit()
}

// MovePet gives pet petID to owner ownerID, if that owner exists.
func (c *Clinic) MovePet(ctx context.Context, petID, ownerID int64) error {
	var known bool
	if err := c.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM owners WHERE id = ?)", ownerID).Scan(&known); err != nil {
		return fmt.Errorf("move pet: %w", err)
	}
	if !known {
		return ErrNoOwner
	}
	if _, err := c.db.ExecContext(ctx, "UPDATE pets SET owner_id = ? WHERE id = ?", ownerID, petID); err != nil {
		return fmt.Errorf("move pet: %w", err)
	}
	return nil
}
