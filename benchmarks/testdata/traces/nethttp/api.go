// Package nethttp debits accounts over net/http: each handler reads the
// amount from another part of the request and forgets the balance check.
package nethttp

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
)

// Server serves the API.
type Server struct {
	db  *sql.DB
	mux *http.ServeMux
}

// Routes registers the handlers.
func (s *Server) Routes() {
	s.mux.HandleFunc("POST /accounts/{id}/withdraw", s.withdrawQuery)
	s.mux.HandleFunc("POST /accounts/{id}/form", s.withdrawForm)
	s.mux.HandleFunc("POST /accounts/{id}/header", s.withdrawHeader)
	s.mux.HandleFunc("POST /accounts/{id}/json", s.withdrawJSON)
}

func (s *Server) debit(w http.ResponseWriter, r *http.Request, id, amount int64) {
	if _, err := s.db.ExecContext(r.Context(), "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) withdrawQuery(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.Atoi(r.URL.Query().Get("amount"))
	if err != nil {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	s.debit(w, r, id, int64(amount))
}

func (s *Server) withdrawForm(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
	if err != nil || amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	s.debit(w, r, id, amount)
}

func (s *Server) withdrawHeader(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.ParseInt(r.Header.Get("X-Amount"), 10, 64)
	if err != nil || amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	s.debit(w, r, id, amount)
}

func (s *Server) withdrawJSON(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var body struct {
		Amount int64 `json:"amount"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	s.debit(w, r, id, body.Amount)
}
