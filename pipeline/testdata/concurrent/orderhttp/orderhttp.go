// Package orderhttp debits a balance by a request's path (POST
// /accounts/{id}/debit/{amount}) where it covers the amount, and does not
// check that it did: from a balance of 2, debits of 2 and 1 end with 0 or
// 1 by their order, both answered as done.
package orderhttp

import (
	"database/sql"
	"net/http"
	"strconv"
)

type Server struct{ DB *sql.DB }

// Debit takes the amount the path gives.
func (s *Server) Debit(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.Atoi(r.PathValue("amount"))
	if err != nil || amount < 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	if _, err := s.DB.Exec("UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
