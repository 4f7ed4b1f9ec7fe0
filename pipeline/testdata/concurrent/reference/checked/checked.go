// Package checked: AddPet checks the owner, DeleteOwner checks that the owner has no pets;
// both checks are plain reads (write skew across the reference).
package checked

import (
	"context"
	"database/sql"
	"errors"
)

// Clinic is the owner and pet store.
type Clinic struct{ db *sql.DB }

// AddPet inserts pet petID of owner ownerID after checking the owner.
func (c *Clinic) AddPet(ctx context.Context, ownerID, petID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ok bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM owners WHERE id = $1)", ownerID).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("no such owner")
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, 'x')", petID, ownerID); err != nil {
		return err
	}
	return tx.Commit()
}

// DeleteOwner deletes owner ownerID if no pet references them.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pets WHERE owner_id = $1", ownerID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errors.New("the owner has pets")
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return err
	}
	return tx.Commit()
}
