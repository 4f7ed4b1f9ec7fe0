// Package mysql_upsert_autoinc_unsafe issues a coupon of a campaign in MySQL:
// each issue is a new row whose id AUTO_INCREMENT generates, written with
// INSERT … ON DUPLICATE KEY UPDATE so that a duplicate counts as a
// redemption of the coupon it duplicates.
package mysql_upsert_autoinc_unsafe

import (
	"context"
	"database/sql"

	_ "github.com/go-sql-driver/mysql"
)

// Issue adds a coupon of the campaign, redeemed once, at most maxRedeem
// times; a conflict redeems the existing coupon once more.
func Issue(ctx context.Context, db *sql.DB, campaign string, maxRedeem int32) error {
	if maxRedeem < 1 {
		maxRedeem = 1
	}
	_, err := db.ExecContext(ctx, `INSERT INTO coupons (campaign, redeemed, max_redeem) VALUES (?, 1, ?)
		ON DUPLICATE KEY UPDATE redeemed = redeemed + 1`, campaign, maxRedeem)
	return err
}
