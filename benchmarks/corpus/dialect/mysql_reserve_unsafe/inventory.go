// Package mysql_reserve_unsafe is the stock-reservation repository of a
// warehouse service backed by MySQL.
package mysql_reserve_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrInvalidQuantity = errors.New("inventory: quantity must be positive")
	ErrUnknownProduct  = errors.New("inventory: unknown product")
	ErrOutOfStock      = errors.New("inventory: not enough stock")
)

// Reservation is stock set aside for an order.
type Reservation struct {
	ID        int64
	OrderID   int64
	ProductID int64
	Quantity  int
	Remaining int64 // stock left after the reservation
}

const (
	lockProductSQL       = "SELECT `stock` FROM `products` WHERE `id` = ? FOR UPDATE"
	takeStockSQL         = "UPDATE `products` SET `stock` = `stock` - ?, `updated_at` = NOW() WHERE `id` = ?"
	insertReservationSQL = "INSERT INTO `reservations` SET `order_id` = ?, `product_id` = ?, `quantity` = ?, `created_at` = NOW()"
)

// InventoryRepo reserves stock for orders.
type InventoryRepo struct {
	db *sql.DB
}

func NewInventoryRepo(db *sql.DB) *InventoryRepo { return &InventoryRepo{db: db} }

// Reserve sets qty units of productID aside for orderID. The product row is
// locked while its stock is checked and decremented; sold-out products are
// refused.
func (r *InventoryRepo) Reserve(ctx context.Context, orderID, productID int64, qty int) (*Reservation, error) {
	if qty <= 0 {
		return nil, ErrInvalidQuantity
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("reserve: begin: %w", err)
	}
	defer tx.Rollback()

	var stock int64
	err = tx.QueryRowContext(ctx, lockProductSQL, productID).Scan(&stock)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrUnknownProduct
	}
	if err != nil {
		return nil, fmt.Errorf("reserve: lock product %d: %w", productID, err)
	}
	if stock <= 0 {
		return nil, ErrOutOfStock
	}

	if _, err := tx.ExecContext(ctx, takeStockSQL, qty, productID); err != nil {
		return nil, fmt.Errorf("reserve: take stock: %w", err)
	}
	res, err := tx.ExecContext(ctx, insertReservationSQL, orderID, productID, qty)
	if err != nil {
		return nil, fmt.Errorf("reserve: insert reservation: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, fmt.Errorf("reserve: reservation id: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("reserve: commit: %w", err)
	}
	return &Reservation{
		ID:        id,
		OrderID:   orderID,
		ProductID: productID,
		Quantity:  qty,
		Remaining: stock - int64(qty),
	}, nil
}
