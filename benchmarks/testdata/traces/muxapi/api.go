// Package muxapi debits accounts over gorilla/mux; nothing checks the
// balance.
package muxapi

import (
	"database/sql"
	"net/http"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
	"github.com/gorilla/mux"
)

// Handler serves the API.
type Handler struct{ db *sql.DB }

// Routes registers the routes.
func (h *Handler) Routes(r *mux.Router) {
	r.HandleFunc("/accounts/{id}/withdraw", h.withdraw).Methods(http.MethodPost)
}

func (h *Handler) withdraw(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	amount, err := strconv.ParseInt(r.FormValue("amount"), 10, 64)
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
