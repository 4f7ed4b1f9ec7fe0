package rules

import (
	"context"
	"database/sql"
)

// Scanning into a pointer (the driver leaves it nil for NULL and points
// it at the value otherwise): its nil-ness and its pointee are the
// column's.

// ScanPointerSafe debits only a balance that is there and covers the
// amount.
func ScanPointerSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal *int64
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal == nil || *bal < amt {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// ScanPointerUnsafe allows an overdraft of 10.
func ScanPointerUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	var bal *int64
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal == nil || *bal+10 < amt {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}
