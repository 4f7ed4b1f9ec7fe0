// Package pg_delete_owner_add_pet_fk_safe is the owner and pet registry of a veterinary clinic
// on PostgreSQL (Spring PetClinic's model).
//
// The PetClinic race with a declared foreign key pets.owner_id REFERENCES
// owners: the pet INSERT takes a KEY SHARE lock on the owner row, so
// DeleteOwner's DELETE of the owner waits and then fails (23503) while the
// new pet exists, or AddPet's insert fails once the owner is gone.
package pg_delete_owner_add_pet_fk_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var ErrNoOwner = errors.New("clinic: no such owner")

// Clinic is the owner and pet repository.
type Clinic struct{ db *sql.DB }

func NewClinic(db *sql.DB) *Clinic { return &Clinic{db: db} }

// AddPet registers pet petID named name for owner ownerID.
func (c *Clinic) AddPet(ctx context.Context, ownerID, petID int64, name string) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM owners WHERE id = $1", ownerID).Scan(&n); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	if n == 0 {
		return ErrNoOwner
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, $3)", petID, ownerID, name); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	return tx.Commit()
}

// DeleteOwner removes owner ownerID and their pets.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM pets WHERE owner_id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	return tx.Commit()
}
