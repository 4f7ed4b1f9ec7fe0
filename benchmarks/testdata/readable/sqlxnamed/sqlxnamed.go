// Package sqlxnamed debits through a sqlx named statement without a check.
package sqlxnamed

import (
	_ "github.com/go-sql-driver/mysql"
	"github.com/jmoiron/sqlx"
)

type debit struct {
	ID     int64 `db:"id"`
	Amount int64 `db:"amount"`
}

// Withdraw debits amount.
func Withdraw(db *sqlx.DB, id, amount int64) error {
	if amount <= 0 {
		return nil
	}
	_, err := db.NamedExec("UPDATE accounts SET balance = balance - :amount WHERE id = :id", debit{ID: id, Amount: amount})
	return err
}
