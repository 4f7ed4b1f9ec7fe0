// Package itoa_atoi_safe debits wallets addressed by a numeric code kept
// as text: the balance is checked and debited on the same row, the one
// of the code's canonical spelling (strconv.Itoa of the parsed number),
// whatever spelling the request gave ("00", "+0").
package itoa_atoi_safe

import (
	"database/sql"
	"net/http"
	"strconv"

	_ "github.com/lib/pq"
)

// Server is the API.
type Server struct{ DB *sql.DB }

// Routes mounts the API.
func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /wallets/{code}/debit", s.debit)
}

func (s *Server) debit(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	n, err := strconv.Atoi(code)
	if err != nil {
		http.Error(w, "code must be numeric", http.StatusBadRequest)
		return
	}
	amt, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
	if err != nil || amt <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	tx, err := s.DB.BeginTx(r.Context(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.QueryRowContext(r.Context(), `SELECT balance FROM wallets WHERE code = $1 FOR UPDATE`, strconv.Itoa(n)).Scan(&bal); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if bal < amt {
		http.Error(w, "insufficient", http.StatusConflict)
		return
	}
	if _, err := tx.ExecContext(r.Context(), `UPDATE wallets SET balance = balance - $1 WHERE code = $2`, amt, strconv.Itoa(n)); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	tx.Commit()
}
