// Package multiline writes its calls over several lines, as gofmt leaves
// long ones, and computes a fee with a helper whose locals a trace names.
package multiline

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/lib/pq"
)

// A Debit is one withdrawal.
type Debit struct {
	Account int64
	Amount  int64
	Note    string
}

// feeOf is inlined into Withdraw: a trace names its locals as written.
func feeOf(amount int64, premium bool) int64 {
	rate := int64(2)
	if premium {
		rate = 1
	}
	fee := amount * rate / 100
	return fee
}

// Withdraw debits amount and its fee. Bug: the balance check leaves the
// fee out.
func Withdraw(ctx context.Context, db *sql.DB, account, amount int64, premium bool) error {
	d := Debit{
		Account: account,
		Amount:  amount,
		Note:    "withdrawal",
	}
	if premium {
		d.Note = "premium withdrawal"
	}
	if amount <= 0 {
		return errors.New("bad amount")
	}
	var balance int64
	if err := db.QueryRowContext(ctx,
		`SELECT balance FROM accounts WHERE id = $1`,
		d.Account).Scan(&balance); err != nil {
		return err
	}
	if balance < d.Amount {
		return errors.New("insufficient")
	}
	_, err := db.ExecContext(ctx,
		`UPDATE accounts SET balance = balance - $1 WHERE id = $2`,
		d.Amount+feeOf(d.Amount, premium),
		d.Account)
	return err
}

// Deposit credits amount less a fee that depends on the channel, unless
// the fee is waived. Bug: a negative amount passes.
func Deposit(ctx context.Context, db *sql.DB, account, amount int64, channel int, waived bool) error {
	fee := int64(3)
	switch channel {
	case 1:
		// the branch's counter: the default fee
	case 2:
		fee = 5
	}
	if waived {
		// nothing to take
	} else {
		amount -= fee
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, amount, account)
	return err
}
