// Package refunds serves refunds over HTTP: POST /wallets/{id}/refund with
// a JSON body {"amount": n} credits the wallet.
package refunds

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"

	_ "modernc.org/sqlite"
)

// Handler holds the database.
type Handler struct{ DB *sql.DB }

// Refund credits the amount of the request's body; a negative amount is
// not refused, so a "refund" can debit the wallet below zero.
func (h *Handler) Refund(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var req struct {
		Amount int64 `json:"amount"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if _, err := h.DB.ExecContext(r.Context(), `UPDATE wallets SET balance = balance + ? WHERE id = ?`, req.Amount, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
