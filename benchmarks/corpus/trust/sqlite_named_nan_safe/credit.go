// Package sqlite_named_nan_safe credits store refunds (SQLite) in float64
// amounts bound by name: sql.Named, and sqlx's :name parameters from a
// struct or a map.
package sqlite_named_nan_safe

import (
	"database/sql"
	"errors"
	"math"

	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite"
)

// ErrAmount rejects an amount outside (0, 100].
var ErrAmount = errors.New("refund: bad amount")

// Refund credits amount to account id; math.IsNaN keeps a NaN out, the
// comparisons keep the amount in (0, 100].
func Refund(db *sql.DB, id int64, amount float64) error {
	if math.IsNaN(amount) || amount <= 0 || amount > 100 {
		return ErrAmount
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + :amount WHERE id = :id",
		sql.Named("amount", amount), sql.Named("id", id))
	return err
}

// Credit does not ask math.IsNaN: a NaN passes both comparisons and
// reaches the UPDATE, where SQLite binds it as NULL and the NOT NULL
// balance refuses balance + NULL.
func Credit(db *sql.DB, id int64, amount float64) error {
	if amount <= 0 || amount > 100 {
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

// CreditStruct is Credit through sqlx.NamedExec with a struct.
func CreditStruct(db *sqlx.DB, r refund) error {
	if r.Amount <= 0 || r.Amount > 100 {
		return ErrAmount
	}
	_, err := db.NamedExec("UPDATE accounts SET balance = balance + :amount WHERE id = :id", r)
	return err
}

// CreditMap is Credit through sqlx.NamedExec with a map.
func CreditMap(db *sqlx.DB, id int64, amount float64) error {
	if amount <= 0 || amount > 100 {
		return ErrAmount
	}
	_, err := db.NamedExec("UPDATE accounts SET balance = balance + :amount WHERE id = :id",
		map[string]any{"amount": amount, "id": id})
	return err
}
