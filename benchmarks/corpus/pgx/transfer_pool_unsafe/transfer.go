// Package bank moves money between accounts with pgx v5 and a pgxpool.
package bank

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrInsufficientFunds is returned when the source account cannot pay.
var ErrInsufficientFunds = errors.New("insufficient funds")

// Service transfers money.
type Service struct {
	pool *pgxpool.Pool
}

// New connects to Postgres.
func New(ctx context.Context, url string) (*Service, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &Service{pool: pool}, nil
}

// Transfer moves amount from one account to another in one transaction.
func (s *Service) Transfer(ctx context.Context, from, to, amount int64) error {
	if amount <= 0 {
		return fmt.Errorf("invalid amount %d", amount)
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx)

	var balance int64
	err = tx.QueryRow(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", from).Scan(&balance)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("account %d not found", from)
	}
	if err != nil {
		return fmt.Errorf("read balance: %w", err)
	}
	if balance < 0 { // bug: checks the balance, not whether it covers the amount
		return ErrInsufficientFunds
	}
	tag, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, from)
	if err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("debit: account %d vanished", from)
	}
	if _, err := tx.Exec(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amount, to); err != nil {
		return fmt.Errorf("credit: %w", err)
	}
	return tx.Commit(ctx)
}

// Balances lists every account's balance.
func (s *Service) Balances(ctx context.Context) (map[int64]int64, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, balance FROM accounts")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var id, b int64
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		out[id] = b
	}
	return out, rows.Err()
}
