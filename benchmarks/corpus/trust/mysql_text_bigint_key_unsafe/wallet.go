// Package wallet debits the wallet whose id the caller passes as text (a
// path parameter) from a BIGINT key: MariaDB reads the text by its numeric
// prefix, which the model does not spell: it takes the text to be an
// integer's (twin of pg_text_bigint_key_unsafe on MySQL).
package wallet

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Debit takes cents from wallet id without checking the balance.
func Debit(db *sql.DB, id string, cents int64) error {
	if cents <= 0 {
		return nil
	}
	_, err := db.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = ?`, cents, id)
	return err
}
