package rules

import (
	"context"
	"database/sql"
)

type collectedAccount struct {
	ID, Balance int64
}

// loadCollected fills a slice from a rows.Next loop, the repository
// helper shape: each element is the row as the query returned it.
func loadCollected(ctx context.Context, db *sql.DB) ([]collectedAccount, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, balance FROM accounts")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []collectedAccount
	for rows.Next() {
		var a collectedAccount
		if err := rows.Scan(&a.ID, &a.Balance); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CollectedRangeUnsafe charges every account half its balance plus one:
// an account at 0 goes to -1. The element read in the range loop is the
// one the model follows.
func CollectedRangeUnsafe(ctx context.Context, db *sql.DB) error {
	as, err := loadCollected(ctx, db)
	if err != nil {
		return err
	}
	for _, a := range as {
		fee := a.Balance/2 + 1
		if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", fee, a.ID); err != nil {
			return err
		}
	}
	return nil
}

// CollectedElemWrittenUnknown zeroes the elements before charging
// them: no charge runs (SAFE). Had the model kept following the copy it
// took at the append (balance 1), it would have charged 2 and reported a
// false UNSAFE: the write through &as[i] stops the following.
func CollectedElemWrittenUnknown(ctx context.Context, db *sql.DB) error {
	as, err := loadCollected(ctx, db)
	if err != nil {
		return err
	}
	for i := range as {
		as[i].Balance = 0
	}
	for _, a := range as {
		if a.Balance > 0 {
			if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", 2*a.Balance, a.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// CollectedCopiedOverUnknown copies zeroed accounts over the elements
// before charging them: no charge runs (SAFE). copy writes the elements:
// following the copy taken at the append would charge 2 (a false UNSAFE).
func CollectedCopiedOverUnknown(ctx context.Context, db *sql.DB) error {
	as, err := loadCollected(ctx, db)
	if err != nil {
		return err
	}
	copy(as, make([]collectedAccount, len(as)))
	for _, a := range as {
		if a.Balance > 0 {
			if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", 2*a.Balance, a.ID); err != nil {
				return err
			}
		}
	}
	return nil
}
