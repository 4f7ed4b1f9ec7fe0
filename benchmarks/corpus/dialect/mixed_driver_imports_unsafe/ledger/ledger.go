// Package ledger keeps the wallets of a point-of-sale terminal in a local
// SQLite file; the module's reports package runs on MySQL.
//
// Spend debits a wallet and moves its floor (the least balance the next
// spend keeps) to the balance in one UPDATE. SQLite evaluates every SET
// expression on the row as it was, so floor gets the balance before the
// debit and ends above the new balance — where MySQL, assigning left to
// right, would set it to the new balance. Read in MySQL's order, the
// statement looks safe.
package ledger

import (
	"database/sql"
	"errors"

	_ "modernc.org/sqlite"
)

// Spend debits amount from wallet id when its balance covers it.
func Spend(db *sql.DB, id, amount int64) error {
	if amount <= 0 {
		return errors.New("ledger: amount must be positive")
	}
	_, err := db.Exec("UPDATE wallets SET balance = balance - ?, floor = balance WHERE id = ? AND balance >= ?", amount, id, amount)
	return err
}
