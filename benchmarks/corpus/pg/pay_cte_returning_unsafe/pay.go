// Package pay charges wallets on PostgreSQL. A payment debits the wallet
// through a data-modifying WITH that reads back the new balance; a wallet
// left below the low-balance mark pays a small fee — taken without a
// check, so a wallet left with 1 goes to -1.
package pay

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// ErrFunds is returned when the wallet cannot pay.
var ErrFunds = errors.New("pay: insufficient funds")

const (
	lowMark = 100
	lowFee  = 2
)

// Payments charges wallets.
type Payments struct{ db *sql.DB }

func New(db *sql.DB) *Payments { return &Payments{db: db} }

// Pay takes amount from wallet id and returns the balance left.
func (p *Payments) Pay(ctx context.Context, id, amount int64) (int64, error) {
	if amount <= 0 {
		return 0, errors.New("pay: amount must be positive")
	}
	var left int64
	err := p.db.QueryRowContext(ctx, `
		WITH paid AS (
			UPDATE wallets SET balance = balance - $1
			WHERE id = $2 AND balance >= $1
			RETURNING balance
		)
		SELECT balance FROM paid`, amount, id).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrFunds
	}
	if err != nil {
		return 0, err
	}
	if left < lowMark {
		if _, err := p.db.ExecContext(ctx,
			`UPDATE wallets SET balance = balance - $1 WHERE id = $2`, lowFee, id); err != nil {
			return left, err
		}
		left -= lowFee
	}
	return left, nil
}
