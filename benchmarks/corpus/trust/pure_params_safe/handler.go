// Package topup credits accounts over gorilla/mux (MySQL). The request is
// validated by a helper that parses the parameters, and the handler parses
// them again.
package topup

import (
	"database/sql"
	"errors"
	"net/http"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
	"github.com/gorilla/mux"
)

// Handler serves the top-up API.
type Handler struct{ db *sql.DB }

// Routes registers the handler's routes.
func (h *Handler) Routes(r *mux.Router) {
	r.HandleFunc("/accounts/{id}/topup", h.topUp).Methods(http.MethodPost)
}

func accountID(r *http.Request) (int64, error) {
	return strconv.ParseInt(mux.Vars(r)["id"], 10, 64)
}

func amount(r *http.Request, name string) (int64, error) {
	return strconv.ParseInt(r.URL.Query().Get(name), 10, 64)
}

func validate(r *http.Request) error {
	if _, err := accountID(r); err != nil {
		return errors.New("bad account id")
	}
	a, err := amount(r, "amount")
	if err != nil || a <= 0 {
		return errors.New("amount must be positive")
	}
	return nil
}

func (h *Handler) topUp(w http.ResponseWriter, r *http.Request) {
	if err := validate(r); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id, _ := accountID(r)
	a, _ := amount(r, "amount")
	if _, err := h.db.ExecContext(r.Context(), "UPDATE accounts SET balance = balance + ? WHERE id = ?", a, id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
