// Package sqlite_named_nan_unsafe credits store refunds (SQLite) in
// float64 amounts bound by name: sql.Named, and sqlx's :name parameters
// from a struct or a map. Each rejects NaN and amounts above 100, but
// not negative ones.
package sqlite_named_nan_unsafe

import (
	"database/sql"
	"errors"
	"math"

	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite"
)

// ErrAmount rejects a NaN amount or one above 100.
var ErrAmount = errors.New("refund: bad amount")

// Refund credits amount to account id (sql.Named); a negative amount
// debits it.
func Refund(db *sql.DB, id int64, amount float64) error {
	if math.IsNaN(amount) || amount > 100 {
		return ErrAmount
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + :amount WHERE id = :id",
		sql.Named("amount", amount), sql.Named("id", id))
	return err
}

// refund is a refund as sqlx binds it by `db` names.
type refund struct {
	ID     int64   `db:"id"`
	Amount float64 `db:"amount"`
}

// RefundStruct is Refund through sqlx.NamedExec with a struct.
func RefundStruct(db *sqlx.DB, r refund) error {
	if math.IsNaN(r.Amount) || r.Amount > 100 {
		return ErrAmount
	}
	_, err := db.NamedExec("UPDATE accounts SET balance = balance + :amount WHERE id = :id", r)
	return err
}

// RefundMap is Refund through sqlx.NamedExec with a map.
func RefundMap(db *sqlx.DB, id int64, amount float64) error {
	if math.IsNaN(amount) || amount > 100 {
		return ErrAmount
	}
	_, err := db.NamedExec("UPDATE accounts SET balance = balance + :amount WHERE id = :id",
		map[string]any{"amount": amount, "id": id})
	return err
}
