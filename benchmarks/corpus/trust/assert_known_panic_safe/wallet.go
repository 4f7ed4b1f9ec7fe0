// Package wallet debits accounts (PostgreSQL through pgx's database/sql
// driver) down to the floor an account's limit allows. Withdraw builds a
// strict limit and asks for its overdraft, which only an *Overdraft
// has: the assertion panics, and the UPDATE never runs (no deferred
// call is pending: the panic ends the run).
package wallet

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Limit is an account's floor.
type Limit interface {
	Floor() int64
}

// Strict allows no overdraft.
type Strict struct{}

// Floor is 0.
func (*Strict) Floor() int64 { return 0 }

// Overdraft allows a balance down to -Max.
type Overdraft struct{ Max int64 }

// Floor is -Max.
func (o *Overdraft) Floor() int64 { return -o.Max }

// overdraftOf is the overdraft of a limit that must be an *Overdraft.
func overdraftOf(l Limit) int64 { return l.(*Overdraft).Max }

// Service withdraws money.
type Service struct{ db *sql.DB }

// NewService returns a service over db.
func NewService(db *sql.DB) *Service { return &Service{db: db} }

// Withdraw takes amt from an account down to its overdraft.
func (s *Service) Withdraw(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	var l Limit = &Strict{}
	floor := -overdraftOf(l) // panics: a *Strict is not an *Overdraft
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance - $1 >= $3", amt, id, floor)
	return err
}
