// Package names has bugs whose traces must name every value by the Go
// expression it came from: fields behind pointers a decoder filled, a
// value taken from the request's context, struct fields (a time.Time
// among them), string columns, a package-level mutex.
package names

import (
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

// SimpleInput is nested in CreateInput behind a pointer.
type SimpleInput struct {
	Stock int64 `json:"stock"`
}

// CreateInput is a request body.
type CreateInput struct {
	Name   string       `json:"name"`
	Simple *SimpleInput `json:"simple"`
}

// Create inserts the decoded nested stock, unchecked.
func Create(db *sql.DB, r *http.Request) error {
	var in CreateInput
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		return err
	}
	_, err := db.Exec("INSERT INTO products (name, currency, stock) VALUES ($1, 'USD', $2)", in.Name, in.Simple.Stock)
	return err
}

// User is the authenticated user a middleware puts in the context.
type User struct{ ProductID int64 }

type userKey struct{}

// Spend takes amount from the user's product, unchecked.
func Spend(db *sql.DB, r *http.Request, amount int64) error {
	u := r.Context().Value(userKey{}).(*User)
	_, err := db.Exec("UPDATE products SET stock = stock - $1 WHERE id = $2", amount, u.ProductID)
	return err
}

// Product is a row of products.
type Product struct {
	ID        int64
	Stock     int64
	Currency  string
	CreatedAt time.Time
}

var mu sync.Mutex

func load(db *sql.DB, id int64) (Product, error) {
	var p Product
	err := db.QueryRow("SELECT id, stock, currency, created_at FROM products WHERE id = $1", id).Scan(&p.ID, &p.Stock, &p.Currency, &p.CreatedAt)
	return p, err
}

// Take checks the currency, not the stock.
func Take(db *sql.DB, id, qty int64, currency string) error {
	mu.Lock()
	defer mu.Unlock()
	p, err := load(db, id)
	if err != nil {
		return err
	}
	if p.Currency != currency {
		return errors.New("take: wrong currency")
	}
	_, err = db.Exec("UPDATE products SET stock = $1 WHERE id = $2", p.Stock-qty, p.ID)
	return err
}
