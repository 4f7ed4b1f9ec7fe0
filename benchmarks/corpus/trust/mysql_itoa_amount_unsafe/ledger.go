// Package mysql_itoa_amount_unsafe is the debit path of a ledger service on
// MySQL whose query layer passes every argument as text (strconv.Itoa),
// as code that once built SQL strings by hand often still does.
package mysql_itoa_amount_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	_ "github.com/go-sql-driver/mysql"
)

var (
	ErrBadAmount = errors.New("ledger: amount must be positive")
	ErrNoFunds   = errors.New("ledger: insufficient funds")
)

// Ledger debits accounts.
type Ledger struct{ db *sql.DB }

func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Debit takes amount from the account; the guard was meant to allow an
// overdraft of half the amount but compares with amount/2: balance 5 and
// amount 10 end at -5.
func (l *Ledger) Debit(ctx context.Context, accountID int64, amount int) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	amt := strconv.Itoa(amount)
	res, err := l.db.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
		amt, strconv.FormatInt(accountID, 10), strconv.Itoa(amount/2))
	if err != nil {
		return fmt.Errorf("debit: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNoFunds
	}
	return nil
}
