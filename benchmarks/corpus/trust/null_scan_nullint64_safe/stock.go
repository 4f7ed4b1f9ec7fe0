// Package null_scan_nullint64_safe is null_scan_int64_safe with the
// nullable reserved column scanned into sql.NullInt64 and its Int64 used
// without looking at Valid: a NULL reserved reads as 0 reserved units, so
// a transfer may move the whole stock and no more (stock - 0 >= qty), and
// a reservation of a NULL row adds to NULL (still NULL). Both constraints
// hold; the scan of a NULL succeeds here, unlike into an int64.
package null_scan_nullint64_safe

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
	var stock int64
	var reserved sql.NullInt64
	if err := tx.QueryRow("SELECT stock, reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", fromID).Scan(&stock, &reserved); err != nil {
		return err
	}
	available := stock - reserved.Int64
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
	var stock int64
	var reserved sql.NullInt64
	if err := tx.QueryRow("SELECT stock, reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", id).Scan(&stock, &reserved); err != nil {
		return err
	}
	if reserved.Int64+qty > stock {
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
	var reserved sql.NullInt64
	if err := tx.QueryRow("SELECT reserved FROM warehouse_stock WHERE id = ? FOR UPDATE", id).Scan(&reserved); err != nil {
		return err
	}
	if reserved.Int64 < qty {
		return ErrInsufficient
	}
	if _, err := tx.Exec("UPDATE warehouse_stock SET reserved = reserved - ? WHERE id = ?", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
