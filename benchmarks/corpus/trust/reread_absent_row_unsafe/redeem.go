// Package reread_absent_row_unsafe redeems loyalty points. Members with a
// redemption cap are debited at once, after a balance check; the others'
// redemptions are queued for review and debit nothing. But Redeem asks for
// the member's active cap, and the booking helper for any cap: a member
// whose cap is switched off skips the balance check and is then debited.
package reread_absent_row_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "github.com/lib/pq"
)

var (
	ErrBadPoints    = errors.New("redeem: points must be positive")
	ErrOverCap      = errors.New("redeem: over the member's cap")
	ErrInsufficient = errors.New("redeem: not enough points")
)

// Points is the loyalty store.
type Points struct{ DB *sql.DB }

// capOf returns the member's cap and whether the member has one.
func (p *Points) capOf(ctx context.Context, member int64) (int64, bool, error) {
	var max int64
	err := p.DB.QueryRowContext(ctx, `SELECT max_points FROM redemption_caps WHERE member_id = $1`, member).Scan(&max)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("cap of %d: %w", member, err)
	}
	return max, true, nil
}

// activeCap returns the member's cap and whether it is switched on.
func (p *Points) activeCap(ctx context.Context, member int64) (int64, bool, error) {
	var max int64
	err := p.DB.QueryRowContext(ctx, `SELECT max_points FROM redemption_caps WHERE member_id = $1 AND active`, member).Scan(&max)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("active cap of %d: %w", member, err)
	}
	return max, true, nil
}

// Redeem takes points off a capped member's wallet, or queues the
// redemption of an uncapped one.
func (p *Points) Redeem(ctx context.Context, member, points int64) error {
	if points <= 0 {
		return ErrBadPoints
	}
	max, capped, err := p.activeCap(ctx, member)
	if err != nil {
		return err
	}
	if capped {
		if points > max {
			return ErrOverCap
		}
		var balance int64
		if err := p.DB.QueryRowContext(ctx, `SELECT points FROM wallets WHERE member_id = $1`, member).Scan(&balance); err != nil {
			return fmt.Errorf("wallet of %d: %w", member, err)
		}
		if balance < points {
			return ErrInsufficient
		}
	}
	return p.book(ctx, member, points)
}

// book debits a capped member and queues an uncapped one's redemption.
func (p *Points) book(ctx context.Context, member, points int64) error {
	_, capped, err := p.capOf(ctx, member)
	if err != nil {
		return err
	}
	if !capped {
		_, err := p.DB.ExecContext(ctx, `INSERT INTO pending_redemptions (member_id, points) VALUES ($1, $2)`, member, points)
		return err
	}
	_, err = p.DB.ExecContext(ctx, `UPDATE wallets SET points = points - $1 WHERE member_id = $2`, points, member)
	return err
}
