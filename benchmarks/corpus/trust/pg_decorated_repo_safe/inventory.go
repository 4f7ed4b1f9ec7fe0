// Package inventory reserves stock through a repository behind a logging
// decorator: the service sees the Store interface, which two types
// implement (the database store and the decorator that wraps it).
package inventory

import (
	"context"
	"database/sql"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Product is a row of products.
type Product struct {
	ID        int64
	Stock     int64
	Backorder int64
}

// Store reads products.
type Store interface {
	Get(ctx context.Context, id int64) (Product, error)
}

type dbStore struct{ db *sql.DB }

func (s *dbStore) Get(ctx context.Context, id int64) (Product, error) {
	var p Product
	err := s.db.QueryRowContext(ctx, `SELECT id, stock, backorder FROM products WHERE id = $1`, id).Scan(&p.ID, &p.Stock, &p.Backorder)
	return p, err
}

// loggingStore logs every read of the store it wraps.
type loggingStore struct {
	next Store
	log  *log.Logger
}

func (l *loggingStore) Get(ctx context.Context, id int64) (Product, error) {
	p, err := l.next.Get(ctx, id)
	if err != nil {
		l.log.Printf("get product %d: %v", id, err)
	}
	return p, err
}

// Service reserves stock.
type Service struct {
	store Store
	db    *sql.DB
}

// NewService wires the database store behind the logging decorator.
func NewService(db *sql.DB, logger *log.Logger) *Service {
	return &Service{store: &loggingStore{next: &dbStore{db: db}, log: logger}, db: db}
}

// Reserve takes qty items if the stock covers them.
func (s *Service) Reserve(ctx context.Context, id, qty int64) error {
	p, err := s.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if qty <= 0 || qty > p.Stock {
		return nil
	}
	_, err = s.db.ExecContext(ctx, `UPDATE products SET stock = stock - $1 WHERE id = $2`, qty, id)
	return err
}
