// Package petsfirst: FOR SHARE, but DeleteOwner deletes the pets before the owner: a pet inserted between them is orphaned.
package petsfirst

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
	var id int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM owners WHERE id = $1 FOR SHARE", ownerID).Scan(&id); err != nil {
		return errors.New("no such owner")
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, 'x')", petID, ownerID); err != nil {
		return err
	}
	return tx.Commit()
}

// DeleteOwner deletes owner ownerID and the owner's pets.
func (c *Clinic) DeleteOwner(ctx context.Context, ownerID int64) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM pets WHERE owner_id = $1", ownerID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM owners WHERE id = $1", ownerID); err != nil {
		return err
	}
	return tx.Commit()
}
