// Package fk_pg_add_pet_rc_unsafe is the owner and pet registry of a
// veterinary clinic on PostgreSQL, with no FOREIGN KEY declared.
//
// AddPet checks that the owner exists with a plain SELECT EXISTS, then
// inserts the pet; DeleteOwner deletes the owner, then the owner's pets.
// At READ COMMITTED the check holds nothing: DeleteOwner may delete the
// owner and its pets between AddPet's check and its commit, and the pet
// is left referencing no owner.
package fk_pg_add_pet_rc_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrNoOwner is returned for a pet of an owner that does not exist.
var ErrNoOwner = errors.New("clinic: no such owner")

// Clinic is the owner and pet repository.
type Clinic struct{ db *sql.DB }

// NewClinic returns the repository over db.
func NewClinic(db *sql.DB) *Clinic { return &Clinic{db: db} }

// AddPet registers pet petID named name for owner ownerID.
func (c *Clinic) AddPet(ctx context.Context, ownerID, petID int64, name string) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	defer tx.Rollback()
	var ok bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM owners WHERE id = $1)", ownerID).Scan(&ok); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	if !ok {
		return ErrNoOwner
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, $3)", petID, ownerID, name); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	return tx.Commit()
}

// DeleteOwner removes owner ownerID, then their pets.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM pets WHERE owner_id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	return tx.Commit()
}
