// Package mysql_delete_owner_add_pet_unsafe is the owner and pet registry of a veterinary clinic
// on MySQL (Spring PetClinic's model).
//
// DPF's PetClinic race on MySQL without a foreign key: AddPet's count of the
// owner is a snapshot read; DeleteOwner removes the owner's pets and the
// owner in between, and the new pet is left pointing at no owner.
package mysql_delete_owner_add_pet_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
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
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM owners WHERE id = ?", ownerID).Scan(&n); err != nil {
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

// DeleteOwner removes owner ownerID and their pets.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM pets WHERE owner_id = ?", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = ?", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	return tx.Commit()
}
