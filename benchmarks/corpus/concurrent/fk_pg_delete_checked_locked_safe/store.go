// Package fk_pg_delete_checked_locked_safe is the owner and pet registry of a
// veterinary clinic on PostgreSQL, with no FOREIGN KEY declared.
//
// AddPet reads the owner row FOR SHARE, then inserts the pet;
// DeleteOwner locks the owner row FOR UPDATE, checks that the owner has
// no pets, then deletes the owner. The two locks conflict: whichever
// request locks the owner first commits before the other reads it, so
// DeleteOwner counts the new pet, or AddPet finds no owner.
package fk_pg_delete_checked_locked_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrNoOwner is returned for a pet of an owner that does not exist.
var ErrNoOwner = errors.New("clinic: no such owner")

// ErrHasPets is returned for the deletion of an owner who has pets.
var ErrHasPets = errors.New("clinic: the owner has pets")

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
	var id int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM owners WHERE id = $1 FOR SHARE", ownerID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoOwner
	}
	if err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, $3)", petID, ownerID, name); err != nil {
		return fmt.Errorf("add pet: %w", err)
	}
	return tx.Commit()
}

// DeleteOwner removes owner ownerID if no pet references them.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM owners WHERE id = $1 FOR UPDATE", ownerID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoOwner
	}
	if err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pets WHERE owner_id = $1", ownerID).Scan(&n); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	if n > 0 {
		return ErrHasPets
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return fmt.Errorf("delete owner: %w", err)
	}
	return tx.Commit()
}
