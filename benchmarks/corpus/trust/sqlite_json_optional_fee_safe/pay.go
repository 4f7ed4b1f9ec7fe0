// Package sqlite_json_optional_fee_safe takes payments from prepaid
// accounts (SQLite). The JSON body's amount is required, its fee optional:
// a missing or null fee is the standard fee of 5, which the SQL fills in.
package sqlite_json_optional_fee_safe

import (
	"database/sql"
	"encoding/json"
	"net/http"

	_ "modernc.org/sqlite"
)

type payReq struct {
	Account int64  `json:"account"`
	Amount  *int64 `json:"amount"`
	Fee     *int64 `json:"fee"`
}

// Payments serves the payment endpoint.
type Payments struct{ DB *sql.DB }

// Pay debits amount plus the fee when the balance covers both: the guard
// and the debit read the fee the same way, COALESCE(fee, 5).
func (p *Payments) Pay(w http.ResponseWriter, r *http.Request) {
	var req payReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Amount == nil || *req.Amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	if req.Fee != nil && *req.Fee < 0 {
		http.Error(w, "bad fee", http.StatusBadRequest)
		return
	}
	_, err := p.DB.Exec("UPDATE accounts SET balance = balance - ? - COALESCE(?, 5) WHERE id = ? AND balance >= ? + COALESCE(?, 5)",
		req.Amount, req.Fee, req.Account, req.Amount, req.Fee)
	if err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Routes registers the handler.
func Routes(db *sql.DB) *http.ServeMux {
	p := &Payments{DB: db}
	m := http.NewServeMux()
	m.HandleFunc("POST /pay", p.Pay)
	return m
}
