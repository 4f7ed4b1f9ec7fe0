// Package sqlite_wallet_returning_safe is the wallet store of a game
// backend on SQLite: purchases spend coins and report the balance left.
package sqlite_wallet_returning_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

var (
	ErrBadPrice = errors.New("wallet: price must be positive")
	ErrNoCoins  = errors.New("wallet: not enough coins")
)

// Wallets spends players' coins.
type Wallets struct{ db *sql.DB }

func NewWallets(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Spend takes price coins from the player's wallet and returns the coins
// left; the WHERE clause only matches a wallet that can pay.
func (w *Wallets) Spend(ctx context.Context, playerID, price int64) (int64, error) {
	if price <= 0 {
		return 0, ErrBadPrice
	}
	var left int64
	err := w.db.QueryRowContext(ctx,
		`UPDATE wallets SET coins = coins - ? WHERE player_id = ? AND coins >= ? RETURNING coins`,
		price, playerID, price).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNoCoins
	}
	if err != nil {
		return 0, fmt.Errorf("spend: %w", err)
	}
	return left, nil
}
