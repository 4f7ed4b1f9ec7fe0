// Package orderlines validates an order line's quantity as
// text ("0" is refused) before parsing it, so "00" — another text for
// zero — passes and stores quantity 0 (issue 8 / 12, adv9 m12).
package orderlines

import (
	"database/sql"
	"errors"
	"net/http"
	"strconv"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// AddLine adds a line of q units to an order.
func AddLine(db *sql.DB, orderID int64, q string) error {
	if q == "0" {
		return errors.New("qty must not be zero")
	}
	qty, err := strconv.ParseInt(q, 10, 64)
	if err != nil || qty < 0 {
		return errors.New("qty must be a number")
	}
	_, err = db.Exec(`INSERT INTO order_lines (order_id, qty) VALUES ($1, $2)`, orderID, qty)
	return err
}

// Lines is the order-line API.
type Lines struct{ db *sql.DB }

// Routes mounts the endpoint.
func (l *Lines) Routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/{id}/lines", l.add)
	return mux
}

func (l *Lines) add(w http.ResponseWriter, r *http.Request) {
	orderID, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad order", http.StatusBadRequest)
		return
	}
	q := r.FormValue("qty")
	if q == "0" {
		http.Error(w, "qty must not be zero", http.StatusBadRequest)
		return
	}
	qty, err := strconv.ParseInt(q, 10, 64)
	if err != nil || qty < 0 {
		http.Error(w, "qty must be a number", http.StatusBadRequest)
		return
	}
	if _, err := l.db.Exec(`INSERT INTO order_lines (order_id, qty) VALUES ($1, $2)`, orderID, qty); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
