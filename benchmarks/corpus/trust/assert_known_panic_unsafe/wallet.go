// Package wallet debits accounts (PostgreSQL through pgx's database/sql
// driver) down to the floor an account's limit allows. Withdraw builds a
// limit with an overdraft of 100 and asks for it: the assertion holds,
// and the UPDATE lets the balance go to -100 (BUG: the accounts table
// allows no negative balance).
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
	var l Limit = &Overdraft{Max: 100}
	floor := -overdraftOf(l)
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance - $1 >= $3", amt, id, floor)
	return err
}
