package rules

import (
	"context"
	"database/sql"
)

// maxDebit is a limit the program sets within 1..100 (SetMaxDebit).
var maxDebit int64 = 100

// SetMaxDebit changes the limit, keeping it within 1..100.
func SetMaxDebit(n int64) {
	if n > 0 && n <= 100 {
		maxDebit = n
	}
}

// GlobalSetByCodeUnknown debits at most maxDebit from a balance of at
// least 100: safe, since nothing sets maxDebit above 100, but the value
// an entry starts with is what earlier calls left, which the model does
// not track (it chose maxDebit = 101: a false UNSAFE).
func GlobalSetByCodeUnknown(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 || amt > maxDebit {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= 100", amt, id)
	return err
}
