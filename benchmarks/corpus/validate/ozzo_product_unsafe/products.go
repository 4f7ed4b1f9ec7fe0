// Package ozzo_product_unsafe creates and restocks catalogue products
// (SQLite). Requests are validated with ozzo-validation before the
// write, but the rules miss a bound each: a negative price, a negative
// stock, a negative delivery pass.
package ozzo_product_unsafe

import (
	"database/sql"
	"encoding/json"
	"net/http"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	_ "modernc.org/sqlite"
)

type createReq struct {
	Name  string `json:"name"`
	Price int64  `json:"price"`
	Stock int64  `json:"stock"`
}

// Validate checks a new product: a name, a price (BUG: required only,
// so -1 passes) and a stock within 0..10000.
func (r *createReq) Validate() error {
	return validation.ValidateStruct(r,
		validation.Field(&r.Name, validation.Required, validation.Length(1, 100)),
		validation.Field(&r.Price, validation.Required),
		validation.Field(&r.Stock, validation.Min(0), validation.Max(10000)),
	)
}

type restockReq struct {
	ID  int64 `json:"id"`
	Qty int64 `json:"qty"`
}

// Catalog serves the product endpoints.
type Catalog struct{ DB *sql.DB }

// CreateProduct inserts a product once its request is valid.
func (c *Catalog) CreateProduct(w http.ResponseWriter, r *http.Request) {
	var req createReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if err := req.Validate(); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := c.DB.Exec("INSERT INTO products (name, price, stock) VALUES (?, ?, ?)", req.Name, req.Price, req.Stock); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// Reprice sets a product's price, checked in the handler itself.
func (c *Catalog) Reprice(w http.ResponseWriter, r *http.Request) {
	var req createReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	err := validation.ValidateStruct(&req,
		validation.Field(&req.Name, validation.Required),
		validation.Field(&req.Price, validation.Required, validation.Max(1000000).Error("a price is at most 1000000")),
	)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := c.DB.Exec("UPDATE products SET price = ? WHERE name = ?", req.Price, req.Name); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Restock adds a delivery to the stock: the quantity is one of the pack
// sizes.
func (c *Catalog) Restock(w http.ResponseWriter, r *http.Request) {
	var req restockReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	// BUG: only an upper bound: a quantity of -6 passes.
	if err := validation.Validate(req.Qty, validation.Required, validation.Max(int64(24))); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := c.DB.Exec("UPDATE products SET stock = stock + ? WHERE id = ?", req.Qty, req.ID); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Import inserts a product from a partner feed, validated through
// ozzo's Validate, which calls the request's Validate method.
func (c *Catalog) Import(w http.ResponseWriter, r *http.Request) {
	var req createReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	if err := validation.Validate(&req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if _, err := c.DB.Exec("INSERT INTO products (name, price, stock) VALUES (?, ?, ?)", req.Name, req.Price, req.Stock); err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// Routes registers the handlers.
func Routes(db *sql.DB) *http.ServeMux {
	c := &Catalog{DB: db}
	m := http.NewServeMux()
	m.HandleFunc("POST /products", c.CreateProduct)
	m.HandleFunc("PUT /products/price", c.Reprice)
	m.HandleFunc("POST /products/restock", c.Restock)
	m.HandleFunc("POST /products/import", c.Import)
	return m
}
