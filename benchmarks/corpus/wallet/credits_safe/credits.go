// Package credits_safe manages the API-credit wallets of a SaaS product.
package credits_safe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount    = errors.New("wallet: amount must be positive")
	ErrNotEnoughCredits = errors.New("wallet: not enough credits")
)

const (
	spendCredits = "UPDATE wallets SET credits = credits - ? WHERE id = ? AND credits >= ?"
	grantCredits = "UPDATE wallets SET credits = credits + ? WHERE id = ?"
	insertUsage  = "INSERT INTO credit_usage (wallet_id, feature_id, amount) VALUES (?, ?, ?)"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Spend charges cost credits to walletID for using featureID and records
// the usage in the same transaction.
func (s *Store) Spend(ctx context.Context, walletID, featureID, cost int64) error {
	if cost <= 0 {
		return ErrInvalidAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, spendCredits, cost, walletID, cost)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotEnoughCredits
	}
	if _, err := tx.ExecContext(ctx, insertUsage, walletID, featureID, cost); err != nil {
		return err
	}
	return tx.Commit()
}

// Grant adds amount credits to walletID (purchases, promotions).
func (s *Store) Grant(ctx context.Context, walletID, amount int64) error {
	if amount <= 0 {
		return ErrInvalidAmount
	}
	_, err := s.db.ExecContext(ctx, grantCredits, amount, walletID)
	return err
}
