// Package limitscale scales a credit line's limit by a percentage over
// HTTP: the integer division rounds each scaling, so two scalings of one
// line end differently by their order.
package limitscale

import (
	"database/sql"
	"net/http"
	"strconv"
)

// API serves the credit lines.
type API struct{ DB *sql.DB }

// ScaleLimit sets a line's limit to value percent of itself.
func (a *API) ScaleLimit(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	pct, err := strconv.ParseInt(r.URL.Query().Get("value"), 10, 64)
	if err != nil || pct < 100 || pct > 200 {
		http.Error(w, "bad value", http.StatusBadRequest)
		return
	}
	if _, err := a.DB.ExecContext(r.Context(), `UPDATE credit_lines SET credit_limit = credit_limit * $1 / 100 WHERE id = $2`, pct, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
