// Package store reserves stock; its DSN turns strict mode off (an empty sql_mode).
package store

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Store holds the shop's database.
type Store struct{ db *sql.DB }

// Open opens the shop's database.
func Open() (*Store, error) {
	db, err := sql.Open("mysql", "shop:secret@tcp(db:3306)/shop?sql_mode=%27%27")
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// SetReserved reserves n of a product's stock; the check is on int32(n),
// the write stores n.
func (s *Store) SetReserved(id int64, n int64) error {
	var stock int32
	if err := s.db.QueryRow(`SELECT stock FROM products WHERE id = ?`, id).Scan(&stock); err != nil {
		return err
	}
	if int32(n) < 0 || int32(n) > stock {
		return errors.New("bad reservation")
	}
	_, err := s.db.Exec(`UPDATE products SET reserved = ? WHERE id = ?`, n, id)
	return err
}
