// Package playground_crossfield_safe records loan repayments (SQLite).
// The request is checked by go-playground/validator with a cross-field
// rule: the payment is more than the minimum the client states, itself
// at least 1. The model does not read gtfield, so the payment's value
// where Struct returns nil is an approximation: UNKNOWN, not the false
// UNSAFE (payment -1) it was while the rule was dropped.
package playground_crossfield_safe

import (
	"database/sql"
	"encoding/json"
	"net/http"

	"github.com/go-playground/validator/v10"
	_ "modernc.org/sqlite"
)

type repayReq struct {
	Loan    int64 `json:"loan" validate:"required"`
	Minimum int64 `json:"minimum" validate:"gte=1"`
	Payment int64 `json:"payment" validate:"required,gtfield=Minimum"`
}

// Loans serves the repayment endpoint.
type Loans struct {
	DB       *sql.DB
	Validate *validator.Validate
}

// Repay adds a payment to what a loan has repaid.
func (l *Loans) Repay(w http.ResponseWriter, r *http.Request) {
	var req repayReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if err := l.Validate.Struct(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := l.DB.Exec("UPDATE loans SET repaid = repaid + ? WHERE id = ?", req.Payment, req.Loan); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Routes registers the handler.
func Routes(db *sql.DB) *http.ServeMux {
	l := &Loans{DB: db, Validate: validator.New()}
	m := http.NewServeMux()
	m.HandleFunc("POST /repay", l.Repay)
	return m
}
