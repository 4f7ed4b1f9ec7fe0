package handlers

import (
	"database/sql"
	"net/http"
	"strconv"
)

// TopUp validates a parameter and parses it again: one value.
func TopUp(db *sql.DB, r *http.Request) {
	a, _ := strconv.Atoi(r.FormValue("n"))
	if a <= 0 {
		return
	}
	b, _ := strconv.Atoi(r.FormValue("n"))
	db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = 7", b)
}
