package rules

import (
	"context"
	"database/sql"
)

// Rows of a table the constraint does not watch (credits): the row read
// satisfies the SELECT's WHERE, in a single-row read and in every row of
// a rows.Next loop, columns the SELECT does not return included.

// UnwatchedWhereSafe credits an amount its WHERE reads only when positive.
func UnwatchedWhereSafe(ctx context.Context, db *sql.DB, id, creditID int64) error {
	var amount int64
	if err := db.QueryRowContext(ctx, "SELECT amount FROM credits WHERE id = ? AND amount > 0", creditID).Scan(&amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, credit, amount, id)
	return err
}

// UnwatchedWhereUnsafe lets a credit of -4 through.
func UnwatchedWhereUnsafe(ctx context.Context, db *sql.DB, id, creditID int64) error {
	var amount int64
	if err := db.QueryRowContext(ctx, "SELECT amount FROM credits WHERE id = ? AND amount > -5", creditID).Scan(&amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, credit, amount, id)
	return err
}

// UnwatchedHiddenColumnSafe reads an amount that its WHERE bounds by a
// column it does not return.
func UnwatchedHiddenColumnSafe(ctx context.Context, db *sql.DB, id, creditID int64) error {
	var amount int64
	if err := db.QueryRowContext(ctx, "SELECT amount FROM credits WHERE id = ? AND amount >= min_amount AND min_amount >= 1", creditID).Scan(&amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, credit, amount, id)
	return err
}

// UnwatchedRowsSafe credits every positive amount of a rows.Next loop.
func UnwatchedRowsSafe(ctx context.Context, db *sql.DB, id int64) error {
	rows, err := db.QueryContext(ctx, "SELECT amount FROM credits WHERE account_id = ? AND amount > 0", id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var amount int64
		if err := rows.Scan(&amount); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, credit, amount, id); err != nil {
			return err
		}
	}
	return rows.Err()
}

// UnwatchedRowsUnsafe credits every amount of a rows.Next loop.
func UnwatchedRowsUnsafe(ctx context.Context, db *sql.DB, id int64) error {
	rows, err := db.QueryContext(ctx, "SELECT amount FROM credits WHERE account_id = ? AND amount <> 0", id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var amount int64
		if err := rows.Scan(&amount); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, credit, amount, id); err != nil {
			return err
		}
	}
	return rows.Err()
}

// UnwatchedWhereUnknown reads an amount its WHERE bounds through a
// function the model does not evaluate: not a counterexample.
func UnwatchedWhereUnknown(ctx context.Context, db *sql.DB, id, creditID int64) error {
	var amount int64
	if err := db.QueryRowContext(ctx, "SELECT amount FROM credits WHERE id = ? AND SIGN(amount) = 1", creditID).Scan(&amount); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, credit, amount, id)
	return err
}

// UnwatchedDateStringUnknown reads a column its WHERE compares with a
// date into a Go string: the driver spells the value its own way
// ("2024-01-01T00:00:00Z" for a PostgreSQL date), not as the WHERE's
// literal, so the Go string is not the value compared.
func UnwatchedDateStringUnknown(ctx context.Context, db *sql.DB, id, eventID int64) error {
	var day string
	if err := db.QueryRowContext(ctx, "SELECT day FROM events WHERE id = $1 AND day = '2024-01-01'", eventID).Scan(&day); err != nil {
		return err
	}
	if day != "2024-01-01" {
		_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = $1", id)
		return err
	}
	return nil
}
