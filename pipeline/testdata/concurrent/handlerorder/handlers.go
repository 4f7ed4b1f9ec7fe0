// Package handlerorder has HTTP handlers on account balances: a guarded
// relative withdrawal that answers 409 when the balance does not cover
// it, and an admin reset that sets the balance.
package handlerorder

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"
)

// Server serves the handlers.
type Server struct{ db *sql.DB }

type amountBody struct {
	Amount int64 `json:"amount"`
}

// Withdraw takes the body's amount when the balance covers it.
func (s *Server) Withdraw(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var body amountBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	res, err := s.db.ExecContext(r.Context(), `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, body.Amount, id)
	if err != nil {
		http.Error(w, "db error", http.StatusInternalServerError)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		http.Error(w, "insufficient funds", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Reset sets the balance to the body's amount.
func (s *Server) Reset(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var body amountBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Amount < 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	if _, err := s.db.ExecContext(r.Context(), `UPDATE accounts SET balance = $1 WHERE id = $2`, body.Amount, id); err != nil {
		http.Error(w, "db error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// WithdrawStatus is Withdraw answering its refusal with w.WriteHeader
// (409) rather than http.Error.
func (s *Server) WithdrawStatus(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var body amountBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Amount <= 0 {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	res, err := s.db.ExecContext(r.Context(), `UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1`, body.Amount, id)
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		w.WriteHeader(http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
