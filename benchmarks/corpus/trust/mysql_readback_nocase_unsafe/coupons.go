// Package mysql_readback_nocase_unsafe redeems coupons on MySQL. Codes
// used to be stored in upper case and are typed in lower case now; the
// legacy redeem path reads the stored code back and debits only coupons
// whose stored spelling differs from the one asked for (the new path
// handles the others, with its own check).
//
// MySQL compares the code under the server's default collation, which
// ignores case: asking for "spring" finds the row "SPRING", reads it back
// as "SPRING" — not the code asked for — and debits a coupon with no use
// left. Without a schema the model read the column back as the Go string
// the WHERE compared with, so the debit was unreachable: SAFE (a wrong
// SAFE; helper trace17's probe).
package mysql_readback_nocase_unsafe

import (
	"context"
	"database/sql"
	"errors"

	_ "github.com/go-sql-driver/mysql"
)

var ErrNotLegacy = errors.New("coupons: not a legacy coupon")

// Coupons is the coupon store.
type Coupons struct{ DB *sql.DB }

// RedeemLegacy uses a legacy coupon once.
func (c *Coupons) RedeemLegacy(ctx context.Context, code string) error {
	var stored string
	if err := c.DB.QueryRowContext(ctx, "SELECT code FROM coupons WHERE code = ?", code).Scan(&stored); err != nil {
		return err
	}
	if stored == code {
		return ErrNotLegacy
	}
	_, err := c.DB.ExecContext(ctx, "UPDATE coupons SET uses_left = uses_left - 1 WHERE code = ?", code)
	return err
}
