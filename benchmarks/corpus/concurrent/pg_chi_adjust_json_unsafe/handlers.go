// Package pg_chi_adjust_json_unsafe is the admin API of a payments service on PostgreSQL, served by chi.
//
// An HTTP handler that decodes its JSON body: adjust reads the balance with a
// plain SELECT at READ COMMITTED, refuses (409) an adjustment that would
// overdraw it, and adds the delta. Two debits of 60 from 100 both read 100,
// both pass the check, and the second UPDATE applies to the committed 40:
// -20. A replay must send each request its body: without one the handler
// refuses it (400) after no database operation.
package pg_chi_adjust_json_unsafe

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// Server serves the admin API.
type Server struct{ db *sql.DB }

// Router mounts the handlers.
func Router(db *sql.DB) http.Handler {
	s := &Server{db: db}
	r := chi.NewRouter()
	r.Post("/admin/accounts/{id}/adjust", s.adjust)
	return r
}

type adjustBody struct {
	Delta  int64  `json:"delta"`
	Reason string `json:"reason"`
}

func (s *Server) adjust(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var body adjustBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Reason == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if body.Delta < -1_000_000 || body.Delta > 1_000_000 {
		http.Error(w, "delta out of range", http.StatusBadRequest)
		return
	}
	tx, err := s.db.BeginTx(r.Context(), nil)
	if err != nil {
		http.Error(w, "db error", http.StatusInternalServerError)
		return
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(r.Context(), `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&balance); err != nil {
		http.Error(w, "no account", http.StatusNotFound)
		return
	}
	if balance+body.Delta < 0 {
		http.Error(w, "adjustment would overdraw", http.StatusConflict)
		return
	}
	if _, err := tx.ExecContext(r.Context(), `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, body.Delta, id); err != nil {
		http.Error(w, "db error", http.StatusInternalServerError)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, "db error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
