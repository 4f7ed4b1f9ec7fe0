// Package limits sets and spends a credit line over HTTP: Spend checks
// the limit in its UPDATE, SetLimit checks a used count it read before,
// so Spend between SetLimit's read and write breaks used <= credit_limit.
package limits

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"
)

// API serves the credit lines.
type API struct{ DB *sql.DB }

// SetLimit sets a line's limit if it covers what is used.
func (a *API) SetLimit(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	limit, err := strconv.ParseInt(r.URL.Query().Get("value"), 10, 64)
	if err != nil || limit < 0 {
		http.Error(w, "bad value", http.StatusBadRequest)
		return
	}
	var used int64
	if err := a.DB.QueryRowContext(r.Context(), `SELECT used FROM credit_lines WHERE id = $1`, id).Scan(&used); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if limit < used {
		http.Error(w, "below used", http.StatusConflict)
		return
	}
	if _, err := a.DB.ExecContext(r.Context(), `UPDATE credit_lines SET credit_limit = $1 WHERE id = $2`, limit, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Spend uses amount of a line within its limit.
func (a *API) Spend(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Line   int64 `json:"line"`
		Amount int64 `json:"amount"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Amount <= 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	res, err := a.DB.ExecContext(r.Context(),
		`UPDATE credit_lines SET used = used + $1 WHERE id = $2 AND used + $1 <= credit_limit`, req.Amount, req.Line)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		http.Error(w, "limit reached", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
