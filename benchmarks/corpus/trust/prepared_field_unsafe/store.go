// Package prepared_field_unsafe prepares its statements once, in its
// constructor, and runs them from its methods, the debit inside a
// transaction (tx.StmtContext). The debit also takes a fee of 1 that the
// balance check does not count: a balance equal to the amount ends at -1.
package prepared_field_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

// ErrInsufficient is returned when the balance does not cover an amount.
var ErrInsufficient = errors.New("accounts: insufficient funds")

// Accounts runs prepared statements on accounts.
type Accounts struct {
	db      *sql.DB
	balance *sql.Stmt
	debit   *sql.Stmt
}

// New prepares the statements.
func New(ctx context.Context, db *sql.DB) (*Accounts, error) {
	a := &Accounts{db: db}
	var err error
	if a.balance, err = db.PrepareContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`); err != nil {
		return nil, fmt.Errorf("prepare balance: %w", err)
	}
	if a.debit, err = db.PrepareContext(ctx, `UPDATE accounts SET balance = balance - $1 - 1 WHERE id = $2`); err != nil {
		return nil, fmt.Errorf("prepare debit: %w", err)
	}
	return a, nil
}

// Withdraw takes amount (and the fee) from account id.
func (a *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 || amount > 1_000_000 {
		return errors.New("accounts: bad amount")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bal int64
	if err := tx.StmtContext(ctx, a.balance).QueryRowContext(ctx, id).Scan(&bal); err != nil {
		return fmt.Errorf("balance of %d: %w", id, err)
	}
	if bal < amount {
		return ErrInsufficient
	}
	if _, err := tx.StmtContext(ctx, a.debit).ExecContext(ctx, amount, id); err != nil {
		return fmt.Errorf("debit %d: %w", id, err)
	}
	return tx.Commit()
}
