// Package mysql_insert_ignore_null_safe opens loyalty wallets (MySQL) whose cap is not known
// yet. New wallets start with 0 points.
package mysql_insert_ignore_null_safe

import (
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Open creates the wallet of userID, or leaves an existing one. INSERT
// IGNORE stores the implicit default 0 for the NULL cap (MySQL and
// MariaDB, strict mode too: IGNORE makes the error a warning).
func Open(db *sql.DB, userID int64) error {
	_, err := db.Exec("INSERT IGNORE INTO wallets (user_id, points, cap) VALUES (?, 0, NULL)", userID)
	return err
}
