// Package ledger applies named ledger operations (MySQL). The operations
// live in a table filled by init; Apply looks one up and runs it in a
// transaction.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/go-sql-driver/mysql"
)

// operation changes one account inside a transaction.
type operation func(ctx context.Context, tx *sql.Tx, id, amount int64) error

var operations = map[string]operation{}

func init() {
	operations["credit"] = credit
	operations["debit"] = debit
}

// ErrInsufficient is returned when a debit exceeds the balance.
var ErrInsufficient = errors.New("insufficient funds")

// Apply runs the named operation.
func Apply(ctx context.Context, db *sql.DB, name string, id, amount int64) error {
	op, ok := operations[name]
	if !ok {
		return fmt.Errorf("unknown operation %q", name)
	}
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := op(ctx, tx, id, amount); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func credit(ctx context.Context, tx *sql.Tx, id, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, id)
	return err
}

func debit(ctx context.Context, tx *sql.Tx, id, amount int64) error {
	var bal int64
	if err := tx.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ? FOR UPDATE", id).Scan(&bal); err != nil {
		return err
	}
	if amount <= 0 || bal < amount {
		return ErrInsufficient
	}
	_, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amount, id)
	return err
}
