// Package closure_captured_safe: a handler factory clamps a floor read
// from the environment to >= 0 before the handler it returns captures
// it; the handler's WHERE keeps balance - amount >= the floor.
package closure_captured_safe

import (
	"database/sql"
	"net/http"
	"os"
	"strconv"

	_ "modernc.org/sqlite"
)

// Handler returns the withdrawal handler.
func Handler(db *sql.DB) http.HandlerFunc {
	minKeep, _ := strconv.ParseInt(os.Getenv("MIN_KEEP"), 10, 64)
	if minKeep < 0 {
		minKeep = 0
	}
	return func(w http.ResponseWriter, r *http.Request) {
		amt, err := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
		if err != nil || amt <= 0 {
			return
		}
		_, _ = db.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = 1 AND balance - ? >= ?`, amt, amt, minKeep)
	}
}
