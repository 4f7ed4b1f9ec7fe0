// Package orderhttp sets a balance from a request's path (PUT
// /accounts/{id}/balance/{amount}): two requests on one account leave
// the balance of whichever commits last.
package orderhttp

import (
	"database/sql"
	"net/http"
	"strconv"
)

type Server struct{ DB *sql.DB }

// SetBalance sets the balance the path gives.
func (s *Server) SetBalance(w http.ResponseWriter, r *http.Request) {
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
	if _, err := s.DB.Exec("UPDATE accounts SET balance = $1 WHERE id = $2", amount, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
