// Package wallet serves wallet withdrawals over a chi router (MySQL). The
// handlers are closures built by factories that capture the database.
package wallet

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	_ "github.com/go-sql-driver/mysql"
)

// Routes mounts the wallet API.
func Routes(db *sql.DB) http.Handler {
	r := chi.NewRouter()
	r.Post("/wallets/{id}/withdraw", makeWithdraw(db))
	r.Get("/wallets/{id}", makeShow(db))
	return r
}

// makeWithdraw returns the handler debiting a wallet.
func makeWithdraw(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
		if err != nil {
			http.Error(w, "bad id", http.StatusBadRequest)
			return
		}
		amount, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
		if err != nil || amount <= 0 {
			http.Error(w, "bad amount", http.StatusBadRequest)
			return
		}
		// BUG: no balance guard; the debit may overdraw the wallet.
		if _, err := db.ExecContext(r.Context(), "UPDATE wallets SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// makeShow returns the handler printing a wallet's balance.
func makeShow(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var bal int64
		if err := db.QueryRowContext(r.Context(), "SELECT balance FROM wallets WHERE id = ?", chi.URLParam(r, "id")).Scan(&bal); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Write([]byte(strconv.FormatInt(bal, 10)))
	}
}
