// Package deposit credits wallets with amounts read from a form as
// unsigned 64-bit numbers.
package deposit

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// Deposit credits the amount in the form: strconv.ParseUint(…, 10, 64)
// refuses a sign but takes 9223372036854775808 and above, which
// int64(amount) wraps to a negative number: the "deposit" withdraws.
func Deposit(ctx context.Context, db *sql.DB, r *http.Request) error {
	id, err := strconv.ParseInt(r.FormValue("wallet"), 10, 64)
	if err != nil {
		return err
	}
	amount, err := strconv.ParseUint(r.FormValue("amount"), 10, 64)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, int64(amount), id)
	return err
}
