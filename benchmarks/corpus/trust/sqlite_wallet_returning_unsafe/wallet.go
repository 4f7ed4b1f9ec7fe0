// Package sqlite_wallet_returning_unsafe is the wallet store of a game
// backend on SQLite: purchases spend coins and report the balance left.
package sqlite_wallet_returning_unsafe

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
// left. It checks the balance RETURNING reports, but the UPDATE has
// already been committed (no transaction): 3 coins spending 5 leave -2.
func (w *Wallets) Spend(ctx context.Context, playerID, price int64) (int64, error) {
	if price <= 0 {
		return 0, ErrBadPrice
	}
	var left int64
	err := w.db.QueryRowContext(ctx,
		`UPDATE wallets SET coins = coins - ? WHERE player_id = ? RETURNING coins`,
		price, playerID).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNoCoins
	}
	if err != nil {
		return 0, fmt.Errorf("spend: %w", err)
	}
	if left < 0 {
		return 0, ErrNoCoins
	}
	return left, nil
}
