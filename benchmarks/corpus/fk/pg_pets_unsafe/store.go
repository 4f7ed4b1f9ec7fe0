// Package pg_pets_unsafe is the owner and pet registry of a veterinary
// clinic on PostgreSQL, whose schema declares no foreign key: the program
// keeps pets.owner_id referring to an owner itself.
//
// DeleteOwner deletes the owner but forgets the owner's pets, which then
// refer to no owner; AddPet and MovePet write an owner_id without looking
// at owners. AdoptStray sets owner_id to NULL: that keeps
// "pets.owner_id IN (SELECT id FROM owners)" (NULL IN (…) is NULL, which
// a CHECK accepts, as a FOREIGN KEY accepts NULL) and breaks the EXISTS
// form (no owner has id = NULL).
package pg_pets_unsafe

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Clinic is the owner and pet repository.
type Clinic struct{ db *sql.DB }

func NewClinic(db *sql.DB) *Clinic { return &Clinic{db: db} }

// AddPet registers pet petID named name for owner ownerID.
func (c *Clinic) AddPet(ctx context.Context, ownerID, petID int64, name string) error {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, $3)", petID, ownerID, name); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	return nil
}

// DeleteOwner removes owner ownerID.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	return tx.Commit()
}

// RenamePet renames pet petID (it writes pets, not owner_id).
func (c *Clinic) RenamePet(ctx context.Context, petID int64, name string) error {
	if _, err := c.db.ExecContext(ctx, "UPDATE pets SET name = $1 WHERE id = $2", name, petID); err != nil {
		return fmt.Errorf("rename pet: %w", err)
	}
	return nil
}

// MovePet gives pet petID to owner ownerID, without looking at the owner.
func (c *Clinic) MovePet(ctx context.Context, petID, ownerID int64) error {
	if _, err := c.db.ExecContext(ctx, "UPDATE pets SET owner_id = $1 WHERE id = $2", ownerID, petID); err != nil {
		return fmt.Errorf("move pet: %w", err)
	}
	return nil
}

// AdoptStray gives pet petID no owner.
func (c *Clinic) AdoptStray(ctx context.Context, petID int64) error {
	if _, err := c.db.ExecContext(ctx, "UPDATE pets SET owner_id = NULL WHERE id = $1", petID); err != nil {
		return fmt.Errorf("adopt stray: %w", err)
	}
	return nil
}
