// Package ledger keeps the wallets of a point-of-sale terminal on MySQL;
// the module's reports package runs on PostgreSQL.
//
// Spend debits a wallet and moves its floor to the balance in one
// UPDATE. MySQL assigns single-table SET expressions left to right, so
// floor gets the balance after the debit. Read in PostgreSQL's order (as
// the reports package's $1 placeholders once made the whole module), the
// statement looks unsafe.
package ledger

import (
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

// Spend debits amount from wallet id when its balance covers it.
func Spend(db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("ledger: amount must be positive")
	}
	_, err := db.Exec("UPDATE wallets SET balance = balance - ?, floor = balance WHERE id = ? AND balance >= ?", amount, id, amount)
	return err
}
