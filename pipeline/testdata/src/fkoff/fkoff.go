// Package fkoff deletes an owner with the foreign-key checks turned off.
package fkoff

import "database/sql"

// Purge deletes an owner whatever refers to it.
func Purge(db *sql.DB, id int64) error {
	if _, err := db.Exec("SET FOREIGN_KEY_CHECKS = 0"); err != nil {
		return err
	}
	_, err := db.Exec("DELETE FROM owners WHERE id = ?", id)
	return err
}

// AddPet inserts a pet, the key's check refusing an owner that does not
// exist — unless a concurrent Purge turned the checks off.
func AddPet(db *sql.DB, id, owner int64) error {
	_, err := db.Exec("INSERT INTO pets (id, owner_id, name) VALUES (?, ?, 'x')", id, owner)
	return err
}
