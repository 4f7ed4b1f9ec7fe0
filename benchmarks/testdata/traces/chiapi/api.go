// Package chiapi debits accounts over chi; the amount is a query
// parameter and nothing checks the balance.
package chiapi

import (
	"database/sql"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	_ "github.com/go-sql-driver/mysql"
)

// Handler serves the API.
type Handler struct{ db *sql.DB }

// Routes mounts the handler.
func (h *Handler) Routes(r chi.Router) {
	r.Post("/accounts/{id}/withdraw", h.withdraw)
}

func (h *Handler) withdraw(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
	if err != nil || amount <= 0 {
		http.Error(w, "bad amount", http.StatusBadRequest)
		return
	}
	if _, err := h.db.ExecContext(r.Context(), "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
