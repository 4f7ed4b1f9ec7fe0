package migrate_checks_safe

import (
	"context"
	"fmt"
)

// TakeStock removes qty units of a product from stock, if there are enough.
func (s *Store) TakeStock(ctx context.Context, productID, qty int64) error {
	if qty <= 0 {
		return ErrInvalidAmount
	}
	res, err := s.db.ExecContext(ctx,
		`UPDATE products SET stock = stock - $1, updated_at = now() WHERE id = $2 AND stock >= $1`,
		qty, productID)
	if err != nil {
		return fmt.Errorf("take stock: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrOutOfStock
	}
	return nil
}

// SetPrice changes the price of a product.
func (s *Store) SetPrice(ctx context.Context, productID, price int64) error {
	if price < 0 {
		return ErrInvalidPrice
	}
	res, err := s.db.ExecContext(ctx, `UPDATE products SET price = $1, updated_at = now() WHERE id = $2`, price, productID)
	if err != nil {
		return fmt.Errorf("set price: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}
