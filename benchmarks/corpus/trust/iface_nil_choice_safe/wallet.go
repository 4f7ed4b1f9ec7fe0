// Package wallet debits accounts (PostgreSQL through pgx's database/sql
// driver). The service keeps its ledger behind an interface and asserts
// it back to *Ledger, the program's only implementation, before writing;
// a service built without a ledger (nil) would allow an overdraft, but
// the assertion panics on it first.
package wallet

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Accounts is the ledger the service writes to.
type Accounts interface {
	Balance(ctx context.Context, id int64) (int64, error)
}

// Ledger is the PostgreSQL ledger.
type Ledger struct{ db *sql.DB }

// NewLedger returns a ledger over db.
func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Balance reads an account's balance.
func (l *Ledger) Balance(ctx context.Context, id int64) (int64, error) {
	var b int64
	err := l.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&b)
	return b, err
}

// Service withdraws money.
type Service struct {
	Accounts Accounts
	db       *sql.DB
}

// NewService returns a service over db.
func NewService(db *sql.DB) *Service { return &Service{Accounts: NewLedger(db), db: db} }

// Withdraw takes amt from an account, never below the floor: 0, or -1000
// for a service without a ledger, which the assertion refuses (a panic).
func (s *Service) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	floor := int64(0)
	if s.Accounts == nil {
		floor = -1000
	}
	l := s.Accounts.(*Ledger)
	_, err := l.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance - $1 >= $3", amt, id, floor)
	return err
}
