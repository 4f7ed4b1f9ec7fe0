// Package checkinsert redeems coupons on PostgreSQL: each user may redeem
// a coupon once. It reads whether the user has redeemed it and inserts a
// redemption if not: two concurrent redemptions both read none and both
// insert (a check-then-insert finding), unless a key refuses the second
// row and the code handles the violation, a lock orders the two, or
// SERIALIZABLE aborts one.
package checkinsert

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// Store is the coupon store.
type Store struct{ db *sql.DB }

var errRedeemed = errors.New("coupon already redeemed")

// Redeem counts the user's redemptions of the coupon in a transaction at
// the default READ COMMITTED and inserts one if there is none.
func (s *Store) Redeem(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemRow looks the redemption's row up, each statement on its own,
// and inserts one where there is no row.
func (s *Store) RedeemRow(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var id int64
	err := s.db.QueryRowContext(ctx, "SELECT id FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&id)
	if err == nil {
		return errRedeemed
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	_, err = s.db.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount)
	return err
}

// RedeemForUpdate locks the row it looks for: on PostgreSQL a FOR UPDATE
// of a missing row locks nothing.
func (s *Store) RedeemForUpdate(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2 FOR UPDATE", userID, couponID).Scan(&id)
	if err == nil {
		return errRedeemed
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemSerializable does Redeem's count and insert at SERIALIZABLE: one
// of two concurrent redemptions fails with 40001.
func (s *Store) RedeemSerializable(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemRepeatable does Redeem's count and insert at REPEATABLE READ:
// the snapshot does not show the other request's row either, and an
// INSERT of a new row conflicts with nothing.
func (s *Store) RedeemRepeatable(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemLockingUser locks the user's row first: two redemptions of one
// user wait for each other.
func (s *Store) RedeemLockingUser(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var u int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM users WHERE id = $1 FOR UPDATE", userID).Scan(&u); err != nil {
		return err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// RedeemUpToThree allows three redemptions: a count race of its own, not
// a check that the row is absent.
func (s *Store) RedeemUpToThree(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM coupon_redemptions WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n >= 3 {
		return errRedeemed
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO coupon_redemptions (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount)
	return err
}

// Claim counts and inserts into coupon_claims, whose UNIQUE key refuses
// the second row; the violation is returned as any other error.
func (s *Store) Claim(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_claims WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_claims (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// ClaimHandled does the same and tells a unique violation from other
// errors: the loser is told the coupon is redeemed.
func (s *Store) ClaimHandled(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_claims WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_claims (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		if strings.Contains(err.Error(), "duplicate key") {
			return errRedeemed
		}
		return err
	}
	return tx.Commit()
}

// ClaimOnConflict inserts with ON CONFLICT DO NOTHING: the second insert
// does nothing.
func (s *Store) ClaimOnConflict(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM coupon_claims WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO coupon_claims (user_id, coupon_id, amount) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", userID, couponID, amount)
	return err
}

// ClaimRepeatable is Claim at REPEATABLE READ: the second INSERT still
// fails with the unique violation.
func (s *Store) ClaimRepeatable(ctx context.Context, userID, couponID, amount int64) error {
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM coupon_claims WHERE user_id = $1 AND coupon_id = $2", userID, couponID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errRedeemed
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO coupon_claims (user_id, coupon_id, amount) VALUES ($1, $2, $3)", userID, couponID, amount); err != nil {
		return err
	}
	return tx.Commit()
}
