// Package decorator_choice_unsafe wraps one of two repositories in a
// logging decorator, chosen by a flag: for premium customers the
// unguarded Admin implementation is stored in the decorator's field, and
// the call through the field overdraws.
package decorator_choice_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

// Debiter takes money from an account.
type Debiter interface {
	Debit(ctx context.Context, id, amount int64) error
}

// Guarded debits only what the balance covers.
type Guarded struct{ DB *sql.DB }

func (g Guarded) Debit(ctx context.Context, id, amount int64) error {
	res, err := g.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?`, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("insufficient funds")
	}
	return nil
}

// Premium debits only what the balance covers, with its own error.
type Premium struct{ DB *sql.DB }

func (p Premium) Debit(ctx context.Context, id, amount int64) error {
	res, err := p.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?`, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("insufficient funds (premium)")
	}
	return nil
}

// Admin corrects balances without a guard; only the admin tool uses it.
type Admin struct{ DB *sql.DB }

func (a Admin) Debit(ctx context.Context, id, amount int64) error {
	_, err := a.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}

// Logged logs the failures of the Debiter it wraps.
type Logged struct{ Inner Debiter }

func (l Logged) Debit(ctx context.Context, id, amount int64) error {
	if err := l.Inner.Debit(ctx, id, amount); err != nil {
		return fmt.Errorf("debit %d: %w", id, err)
	}
	return nil
}

// Withdraw debits through the logger, with the premium repository for
// premium customers: by mistake the unguarded Admin repository.
func Withdraw(ctx context.Context, db *sql.DB, id, amount int64, premium bool) error {
	var d Debiter = Guarded{DB: db}
	if premium {
		d = Admin{DB: db}
	}
	return Logged{Inner: d}.Debit(ctx, id, amount)
}
