// Package pg_pets_safe is the owner and pet registry of a veterinary
// clinic on PostgreSQL, whose schema declares no foreign key: the program
// keeps pets.owner_id referring to an owner itself.
//
// AddPet reads the owner, FOR SHARE, inside the transaction that inserts
// the pet, and inserts the id it read; DeleteOwner deletes the owner's
// pets before the owner, in one transaction; AddOwner adds an owner.
package pg_pets_safe

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
	var id int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM owners WHERE id = $1 FOR SHARE", ownerID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoOwner
	}
	if err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, $3)", petID, id, name); err != nil {
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

// AddOwner registers owner ownerID named name.
func (c *Clinic) AddOwner(ctx context.Context, ownerID int64, name string) error {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO owners (id, name) VALUES ($1, $2)", ownerID, name); err != nil {
		return fmt.Errorf("add owner: %w", err)
	}
	return nil
}
