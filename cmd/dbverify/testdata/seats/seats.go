// Package seats books seats of a show: Book locks the row it checks
// (SAFE for concurrent requests), BookNoLock does not (two bookings of
// the last seat both pass), Cancel gives one back. The cache tests run
// the concurrent check of these twice.
package seats

import (
	"database/sql"
	"errors"
)

// Book takes a seat, reading the show FOR UPDATE.
func Book(db *sql.DB, show int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var booked, capacity int64
	if err := tx.QueryRow(`SELECT booked, capacity FROM shows WHERE id = ? FOR UPDATE`, show).Scan(&booked, &capacity); err != nil {
		return err
	}
	if booked >= capacity {
		return errors.New("sold out")
	}
	if _, err := tx.Exec(`UPDATE shows SET booked = booked + 1 WHERE id = ?`, show); err != nil {
		return err
	}
	return tx.Commit()
}

// BookNoLock takes a seat, reading the show without a lock (bug).
func BookNoLock(db *sql.DB, show int64) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var booked, capacity int64
	if err := tx.QueryRow(`SELECT booked, capacity FROM shows WHERE id = ?`, show).Scan(&booked, &capacity); err != nil {
		return err
	}
	if booked >= capacity {
		return errors.New("sold out")
	}
	if _, err := tx.Exec(`UPDATE shows SET booked = booked + 1 WHERE id = ?`, show); err != nil {
		return err
	}
	return tx.Commit()
}

// Cancel gives a seat back.
func Cancel(db *sql.DB, show int64) error {
	_, err := db.Exec(`UPDATE shows SET booked = booked - 1 WHERE id = ? AND booked > 0`, show)
	return err
}
