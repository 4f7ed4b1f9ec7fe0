// Package playground_partial_safe updates prices (SQLite). The handler
// validates only the fields it changes with go-playground/validator's
// StructPartial, a call the model does not know: the price it checks
// (gte=0) is an approximation after the call, so the entry is UNKNOWN
// naming the call; before, the call's error was a free choice with the
// price havocked, a false UNSAFE (price -1).
package playground_partial_safe

import (
	"database/sql"
	"encoding/json"
	"net/http"

	"github.com/go-playground/validator/v10"
	_ "modernc.org/sqlite"
)

type product struct {
	ID    int64  `json:"id" validate:"required"`
	Name  string `json:"name" validate:"required,max=100"`
	Price int64  `json:"price" validate:"gte=0"`
}

// Prices serves the price endpoint.
type Prices struct {
	DB       *sql.DB
	Validate *validator.Validate
}

// SetPrice sets a product's price: only ID and Price are validated.
func (p *Prices) SetPrice(w http.ResponseWriter, r *http.Request) {
	var req product
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if err := p.Validate.StructPartial(&req, "ID", "Price"); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := p.DB.Exec("UPDATE products SET price = ? WHERE id = ?", req.Price, req.ID); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Routes registers the handler.
func Routes(db *sql.DB) *http.ServeMux {
	p := &Prices{DB: db, Validate: validator.New()}
	m := http.NewServeMux()
	m.HandleFunc("PUT /price", p.SetPrice)
	return m
}
