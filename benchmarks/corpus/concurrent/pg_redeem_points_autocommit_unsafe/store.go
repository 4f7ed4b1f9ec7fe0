// Package pg_redeem_points_autocommit_unsafe is the loyalty wallet of a shop on PostgreSQL.
//
// Redeem checks the member's fraud flag, redemption limit and the running
// campaign (three tables nobody else writes), reads the wallet, checks the
// points in Go, debits them and logs the redemption: every statement on
// the pool, committing on its own. The three lookups commute with all of
// the other request's statements; the partial-order reduction keeps one
// order of them. The wallet read does not commute with the other debit:
// two redemptions of 10 points from 10 both read 10, both pass the check,
// and both debit, leaving -10.
package pg_redeem_points_autocommit_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadPoints    = errors.New("loyalty: points must be positive")
	ErrBlocked      = errors.New("loyalty: member blocked")
	ErrOverLimit    = errors.New("loyalty: over the member's redemption limit")
	ErrInsufficient = errors.New("loyalty: not enough points")
)

// currentCampaign is the campaign whose bonus redemptions earn.
const currentCampaign = 1

// defaultLimit is the redemption limit of a member without their own.
const defaultLimit = 500

// Wallets is the loyalty store.
type Wallets struct{ db *sql.DB }

func NewWallets(db *sql.DB) *Wallets { return &Wallets{db: db} }

// Redeem takes points off member's wallet and records the redemption.
func (w *Wallets) Redeem(ctx context.Context, member, points int64) error {
	if points <= 0 {
		return ErrBadPoints
	}
	var blocked bool
	err := w.db.QueryRowContext(ctx, "SELECT blocked FROM fraud_flags WHERE member_id = $1", member).Scan(&blocked)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("redeem: fraud check: %w", err)
	}
	if blocked {
		return ErrBlocked
	}
	limit := int64(defaultLimit)
	err = w.db.QueryRowContext(ctx, "SELECT max_points FROM redemption_limits WHERE member_id = $1", member).Scan(&limit)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("redeem: limit: %w", err)
	}
	if points > limit {
		return ErrOverLimit
	}
	bonusPercent := int64(0)
	err = w.db.QueryRowContext(ctx, "SELECT bonus_percent FROM campaigns WHERE id = $1", currentCampaign).Scan(&bonusPercent)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("redeem: campaign: %w", err)
	}
	var balance int64
	if err := w.db.QueryRowContext(ctx, "SELECT points FROM wallets WHERE member_id = $1", member).Scan(&balance); err != nil {
		return fmt.Errorf("redeem: wallet: %w", err)
	}
	if balance < points {
		return ErrInsufficient
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE wallets SET points = points - $1 WHERE member_id = $2", points, member); err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if _, err := w.db.ExecContext(ctx, "INSERT INTO redemptions (member_id, points, bonus) VALUES ($1, $2, $3)", member, points, points*bonusPercent/100); err != nil {
		return fmt.Errorf("redeem: log: %w", err)
	}
	return nil
}
