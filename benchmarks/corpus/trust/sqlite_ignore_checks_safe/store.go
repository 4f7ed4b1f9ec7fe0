// Package store gives holds back to wallets; its DSN leaves CHECK enforcement on.
package store

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// Store holds the wallets' database.
type Store struct{ db *sql.DB }

// Open opens the database file at path.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// ReleaseHold gives a hold's amount (positive, by its CHECK) back to its wallet.
func (s *Store) ReleaseHold(holdID int64) error {
	var walletID, amount int64
	if err := s.db.QueryRow(`SELECT wallet_id, amount FROM holds WHERE id = ?`, holdID).Scan(&walletID, &amount); err != nil {
		return err
	}
	_, err := s.db.Exec(`UPDATE wallets SET balance = balance + ? WHERE id = ?`, amount, walletID)
	return err
}

// PlaceHold records a hold.
func (s *Store) PlaceHold(id, walletID, amount int64) error {
	_, err := s.db.Exec(`INSERT INTO holds (id, wallet_id, amount) VALUES (?, ?, ?)`, id, walletID, amount)
	return err
}
