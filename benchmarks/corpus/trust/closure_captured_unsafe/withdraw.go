// Package closure_captured_unsafe: the handler a factory returns
// captures a floor it only reports; its debit has no guard, so any
// amount above the balance overdraws the wallet, whatever the floor.
package closure_captured_unsafe

import (
	"database/sql"
	"fmt"
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
		if _, err := db.Exec(`UPDATE wallets SET balance = balance - ? WHERE id = 1`, amt); err != nil {
			return
		}
		fmt.Fprintf(w, "withdrawn (floor %d)", minKeep)
	}
}
