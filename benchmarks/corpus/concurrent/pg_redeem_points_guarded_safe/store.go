// Package pg_redeem_points_guarded_safe is the loyalty wallet of a shop on PostgreSQL.
//
// Redeem checks the member's fraud flag, redemption limit and the running
// campaign, then debits the wallet with a guarded UPDATE (… AND points >=
// $1) and checks that it matched the row before logging the redemption:
// the guard is evaluated on the row the UPDATE writes, under its lock, so
// a concurrent debit cannot slip between the check and the write.
package pg_redeem_points_guarded_safe

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
	res, err := w.db.ExecContext(ctx, "UPDATE wallets SET points = points - $1 WHERE member_id = $2 AND points >= $1", points, member)
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("redeem: %w", err)
	}
	if n != 1 {
		return ErrInsufficient
	}
	if _, err := w.db.ExecContext(ctx, "INSERT INTO redemptions (member_id, points, bonus) VALUES ($1, $2, $3)", member, points, points*bonusPercent/100); err != nil {
		return fmt.Errorf("redeem: log: %w", err)
	}
	return nil
}
