// Package null_scan_int64_safe keeps warehouse stock in MySQL, in the
// shape of a real e-commerce service (muhammadheryan/e-commerce
// TransferStock): a row's stock is split into reserved units and
// available ones (available = stock - reserved). The reserved column is
// nullable, and the requests scan it into a plain int64: on a row whose
// reserved is NULL the Scan fails ("converting NULL to int64 is
// unsupported") and the request returns that error, so a NULL never
// reaches the arithmetic. The run states stock >= 0 and reserved >= 0.
package null_scan_int64_safe

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// ErrInsufficient is returned when a warehouse has too few units.
var ErrInsufficient = errors.New("insufficient stock")

// Store is the warehouse repository.
type Store struct{ DB *sql.DB }

// TransferStock moves qty available units of a product from one
// warehouse row to another.
func (s *Store) TransferStock(fromID, toID, qty int64) error {
	if qty <= 0 || fromID == toID {
		return ErrInsufficient
	}
	tx, err := s.DB.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock, reserved int64
	if err := tx.QueryRow("SELECT stock, reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", fromID).Scan(&stock, &reserved); err != nil {
		return err
	}
	available := stock - reserved
	if available < qty {
		return ErrInsufficient
	}
	if _, err := tx.Exec("UPDATE warehouse_stock SET stock = stock - ? WHERE id = ?", qty, fromID); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE warehouse_stock SET stock = stock + ? WHERE id = ?", qty, toID); err != nil {
		return err
	}
	return tx.Commit()
}

// Reserve sets qty units of a row aside for an order.
func (s *Store) Reserve(id, qty int64) error {
	if qty <= 0 {
		return ErrInsufficient
	}
	tx, err := s.DB.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stock, reserved int64
	if err := tx.QueryRow("SELECT stock, reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", id).Scan(&stock, &reserved); err != nil {
		return err
	}
	if reserved+qty > stock {
		return ErrInsufficient
	}
	if _, err := tx.Exec("UPDATE warehouse_stock SET reserved = reserved + ? WHERE id = ?", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Release gives qty reserved units of a row back.
func (s *Store) Release(id, qty int64) error {
	if qty <= 0 {
		return ErrInsufficient
	}
	tx, err := s.DB.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var reserved int64
	if err := tx.QueryRow("SELECT reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", id).Scan(&reserved); err != nil {
		return err
	}
	if reserved < qty {
		return ErrInsufficient
	}
	if _, err := tx.Exec("UPDATE warehouse_stock SET reserved = reserved - ? WHERE id = ?", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
