// Package store keeps wallets in SQLite. It opens the database by
// mattn/go-sqlite3's name; the program that imports a driver lives in
// another module, so this one requires none.
package store

import "database/sql"

// Open opens the wallet database.
func Open(path string) (*sql.DB, error) { return sql.Open("sqlite3", path) }

// Withdraw debits a wallet without checking its balance.
func Withdraw(db *sql.DB, id int64, amount int64) error {
	if amount <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE wallets SET balance = balance - ? WHERE id = ?", amount, id)
	return err
}
