// Package keepmin withdraws from a wallet down to a minimum balance that
// the handler's factory reads from the environment and does not clamp: a
// negative MIN_KEEP lets a withdrawal take the balance below zero.
package keepmin

import (
	"database/sql"
	"net/http"
	"os"
	"strconv"

	_ "modernc.org/sqlite"
)

// Handler returns the withdrawal handler; the closure captures minKeep.
func Handler(db *sql.DB) http.HandlerFunc {
	minKeep, _ := strconv.ParseInt(os.Getenv("MIN_KEEP"), 10, 64)
	return func(w http.ResponseWriter, r *http.Request) {
		amt, err := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
		if err != nil || amt <= 0 {
			return
		}
		_, _ = db.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = 1 AND balance - ? >= ?`, amt, amt, minKeep)
	}
}
