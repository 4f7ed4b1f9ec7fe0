// Package credits_unsafe manages the API-credit wallets of a SaaS product.
package credits_unsafe

import (
	"context"
	"database/sql"
	"errors"
)

var (
	ErrInvalidAmount    = errors.New("wallet: amount must be positive")
	ErrNoop             = errors.New("wallet: adjustment of zero credits")
	ErrNotEnoughCredits = errors.New("wallet: not enough credits")
)

const (
	spendCredits  = "UPDATE wallets SET credits = credits - ? WHERE id = ? AND credits >= ?"
	adjustCredits = "UPDATE wallets SET credits = credits + ? WHERE id = ?"
	insertAudit   = "INSERT INTO wallet_audit (wallet_id, admin_id, delta) VALUES (?, ?, ?)"
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

// Spend charges cost credits to walletID.
func (s *Store) Spend(ctx context.Context, walletID, cost int64) error {
	if cost <= 0 {
		return ErrInvalidAmount
	}
	res, err := s.db.ExecContext(ctx, spendCredits, cost, walletID, cost)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotEnoughCredits
	}
	return nil
}

// Adjust is the support-console correction: a positive delta grants
// credits, a negative one revokes them. Every adjustment is audited.
func (s *Store) Adjust(ctx context.Context, walletID, adminID, delta int64) error {
	if delta == 0 {
		return ErrNoop
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, adjustCredits, delta, walletID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, insertAudit, walletID, adminID, delta); err != nil {
		return err
	}
	return tx.Commit()
}
