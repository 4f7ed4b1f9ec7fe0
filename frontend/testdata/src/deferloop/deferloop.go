// Package deferloop defers inside a loop and rolls back deferred.
package deferloop

import "database/sql"

// Each begins a transaction per id and defers every rollback.
func Each(db *sql.DB, ids []int64) error {
	for _, id := range ids {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec("UPDATE accounts SET balance = balance + 1 WHERE id = ?", id); err != nil {
			return err
		}
	}
	return nil
}
