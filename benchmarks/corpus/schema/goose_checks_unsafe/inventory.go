package goose_checks_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Inventory is the stock repository.
type Inventory struct {
	db *sql.DB
}

func NewInventory(db *sql.DB) *Inventory { return &Inventory{db: db} }

// Reserve sets qty units of item aside for orderID.
func (inv *Inventory) Reserve(ctx context.Context, itemID, orderID, qty int64) error {
	if qty <= 0 {
		return ErrInvalidAmount
	}
	tx, err := inv.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var stock, reserved int64
	err = tx.QueryRowContext(ctx,
		"SELECT `stock`, `reserved` FROM `inventory_items` WHERE `id` = ? FOR UPDATE", itemID).
		Scan(&stock, &reserved)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	if qty > stock {
		return ErrUnavailable
	}
	if _, err := tx.ExecContext(ctx,
		"UPDATE `inventory_items` SET `reserved` = `reserved` + ? WHERE `id` = ?", qty, itemID); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO `reservations` SET `item_id` = ?, `order_id` = ?, `qty` = ?", itemID, orderID, qty); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	return tx.Commit()
}

// Restock adds a delivery of qty units to the stock of item; a negative qty
// writes off damaged units.
func (inv *Inventory) Restock(ctx context.Context, itemID, qty int64) error {
	if qty == 0 {
		return ErrInvalidAmount
	}
	_, err := inv.db.ExecContext(ctx, "UPDATE `inventory_items` SET `stock` = `stock` + ? WHERE `id` = ?", qty, itemID)
	return err
}
