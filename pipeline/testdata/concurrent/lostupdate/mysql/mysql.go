// Package mysql reserves stock in a transaction on MySQL (InnoDB): at the
// default REPEATABLE READ the plain read takes no lock and the second
// UPDATE overwrites the first (a lost update); at SERIALIZABLE the read
// is a shared lock and the two requests deadlock instead.
package mysql

import (
	"context"
	"database/sql"
	"errors"
)

// Store is the product store.
type Store struct{ db *sql.DB }

// ReserveTx reads and writes back the stock at the default level.
func (s *Store) ReserveTx(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = ?", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errors.New("not enough stock")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = ? WHERE id = ?", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// ReserveSerializable does the same at SERIALIZABLE.
func (s *Store) ReserveSerializable(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = ?", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errors.New("not enough stock")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = ? WHERE id = ?", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
