// Package constraints_together_unsafe keeps warehouse stock in MySQL, in
// the shape of a real e-commerce service: a row's stock is split into
// reserved units and available ones (available = stock - reserved). A
// transfer moves only available units; reservations never exceed the
// stock but a release does not check how many units are reserved. The run states both
// stock >= 0 and reserved >= 0: the transfer keeps stock >= 0 only where
// reserved >= 0 holds, which Release breaks: a release of more than is reserved, then a transfer of the units that seem available, leave the stock negative.
package constraints_together_unsafe

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

// Release gives qty reserved units of a row back, without looking at how
// many are reserved.
func (s *Store) Release(id, qty int64) error {
	if qty <= 0 {
		return ErrInsufficient
	}
	tx, err := s.DB.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE warehouse_stock SET reserved = reserved - ? WHERE id = ?", qty, id); err != nil {
		return err
	}
	return tx.Commit()
}
