// Package lostupdate reserves stock by reading it and writing the new
// value back: the plain read-modify-write loses a concurrent reservation
// (a lost-update finding); a row lock, a relative write, a version check
// or REPEATABLE READ does not.
package lostupdate

import (
	"context"
	"database/sql"
	"errors"
)

// Store is the product store.
type Store struct{ db *sql.DB }

var errStock = errors.New("not enough stock")

// Reserve reads the stock and writes it back, each statement on its own:
// two reservations that both read 10 both write their own 10-qty.
func (s *Store) Reserve(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	_, err := s.db.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id)
	return err
}

// ReserveTx does the same in a transaction at the default READ
// COMMITTED: the second UPDATE waits for the first's lock, then
// overwrites it.
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
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// ReserveLocked locks the row on the read: the second reservation reads
// the first one's result.
func (s *Store) ReserveLocked(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1 FOR UPDATE", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// ReserveRelative checks the stock read, but writes relative to the
// row's current value.
func (s *Store) ReserveRelative(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	_, err := s.db.ExecContext(ctx, "UPDATE products SET stock = stock - $1 WHERE id = $2 AND stock >= $1", qty, id)
	return err
}

// ReserveVersioned writes only if the row's version did not change since
// the read, and fails if it did.
func (s *Store) ReserveVersioned(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	var stock, version int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock, version FROM products WHERE id = $1", id).Scan(&stock, &version); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	res, err := s.db.ExecContext(ctx, "UPDATE products SET stock = $1, version = version + 1 WHERE id = $2 AND version = $3", stock-qty, id, version)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.New("concurrent update: retry")
	}
	return nil
}

// ReserveRepeatable runs at REPEATABLE READ: the second UPDATE fails with
// a serialization failure (40001) instead of overwriting the first.
func (s *Store) ReserveRepeatable(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Restock sets the stock to a count taken by hand: it does not depend on
// what was read, so nothing is lost that a serial order would keep.
func (s *Store) Restock(ctx context.Context, id, count int64) error {
	if count < 0 {
		return errors.New("count must not be negative")
	}
	var stock int64
	if err := s.db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock == count {
		return nil
	}
	_, err := s.db.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", count, id)
	return err
}

// ReserveAfterTouch bumps the row's version first, in the same
// transaction: the row stays locked from that write to the commit, so
// the second reservation's read waits and sees the first's result.
func (s *Store) ReserveAfterTouch(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE products SET version = version + 1 WHERE id = $1", id); err != nil {
		return err
	}
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// ReserveInWarehouse locks the warehouse's row first: two reservations
// in one warehouse wait for each other, but two in different warehouses
// still both read the product's stock before either writes it.
func (s *Store) ReserveInWarehouse(ctx context.Context, warehouse, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var w int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM warehouses WHERE id = $1 FOR UPDATE", warehouse).Scan(&w); err != nil {
		return err
	}
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// mainWarehouse is the warehouse whose row every reservation of
// ReserveSerialized locks.
const mainWarehouse = 1

// ReserveSerialized locks the main warehouse's row first: every
// reservation waits for the one before it to commit.
func (s *Store) ReserveSerialized(ctx context.Context, id, qty int64) error {
	if qty <= 0 {
		return errors.New("qty must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var w int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM warehouses WHERE id = $1 FOR UPDATE", mainWarehouse).Scan(&w); err != nil {
		return err
	}
	var stock int64
	if err := tx.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = $1", id).Scan(&stock); err != nil {
		return err
	}
	if stock < qty {
		return errStock
	}
	if _, err := tx.ExecContext(ctx, "UPDATE products SET stock = $1 WHERE id = $2", stock-qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
