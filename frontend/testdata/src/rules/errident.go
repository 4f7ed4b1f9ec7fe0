package rules

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Error identity (erridentity.go): the program's own sentinels against
// the errors its helpers return.

var errMissing = errors.New("rules: missing account")

var errReassigned = errors.New("rules: reassigned")

// SetReassigned makes errReassigned another error: it is no own sentinel.
func SetReassigned(e error) { errReassigned = e }

// balanceWrapped reads the balance; a missing row is errMissing wrapped.
func balanceWrapped(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRowContext(ctx, balance, id).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("account %d: %w", id, errMissing)
	}
	return bal, err
}

// balanceFormatted reads the balance; any failure is errMissing's text
// (%v: not wrapped).
func balanceFormatted(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var bal int64
	if err := db.QueryRowContext(ctx, balance, id).Scan(&bal); err != nil {
		return 0, fmt.Errorf("account %d: %v", id, errMissing)
	}
	return bal, nil
}

// balanceBare reads the balance; a missing row is errMissing itself.
func balanceBare(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRowContext(ctx, balance, id).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errMissing
	}
	return bal, err
}

// balanceReassigned returns errReassigned for a missing row.
func balanceReassigned(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var bal int64
	err := db.QueryRowContext(ctx, balance, id).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("account %d: %w", id, errReassigned)
	}
	return bal, err
}

// WrappedSentinelSafe: == never matches the wrapped sentinel (nor the
// driver's error), so the unguarded debit is dead.
func WrappedSentinelSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := balanceWrapped(ctx, db, id); err == errMissing {
		_, err = db.ExecContext(ctx, debit, amt, id)
		return err
	}
	return nil
}

// BareSentinelUnsafe: the helper returns the sentinel itself, for a
// missing row, and the debit of the next account runs. (It debited id
// itself until errs16: no row, so SAFE; the UNSAFE the model gave took
// err == errMissing as true for the driver's error, adv15 F1.)
func BareSentinelUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := balanceBare(ctx, db, id); err == errMissing {
		_, err = db.ExecContext(ctx, debit, amt, id+1)
		return err
	}
	return nil
}

// IsWrappedUnsafe: errors.Is sees through %w (the debit of the next
// account, as in BareSentinelUnsafe).
func IsWrappedUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := balanceWrapped(ctx, db, id); errors.Is(err, errMissing) {
		_, err = db.ExecContext(ctx, debit, amt, id+1)
		return err
	}
	return nil
}

// IsFormattedSafe: %v keeps only the text, so errors.Is is false.
func IsFormattedSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := balanceFormatted(ctx, db, id); errors.Is(err, errMissing) {
		_, err = db.ExecContext(ctx, debit, amt, id)
		return err
	}
	return nil
}

// ReassignedSentinelUnsafe: errReassigned may be any error (SetReassigned),
// a driver's too: == stays open.
func ReassignedSentinelUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if _, err := balanceReassigned(ctx, db, id); err == errReassigned {
		_, err = db.ExecContext(ctx, debit, amt, id)
		return err
	}
	return nil
}

// DefaultsOnMissingSafe: a missing row means the default balance of 100,
// any other failure returns: sql.ErrNoRows is the read that found no
// row, so the debit runs on an existing row only after its balance was
// checked (and on a missing one it changes nothing). adv7 F1: a failed
// read of an existing row was taken as ErrNoRows, a false UNSAFE.
func DefaultsOnMissingSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal := int64(100)
	err := db.QueryRowContext(ctx, balance, id).Scan(&bal)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if bal < amt {
		return errors.New("insufficient funds")
	}
	_, err = db.ExecContext(ctx, debit, amt, id)
	return err
}

// DefaultsOnAnyErrorUnsafe: every failed read means the default balance,
// a server error on an existing row included; the debit then runs on a
// balance nobody checked.
func DefaultsOnAnyErrorUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	bal := int64(100)
	if err := db.QueryRowContext(ctx, balance, id).Scan(&bal); err != nil && err != sql.ErrNoRows {
		bal = 100
	}
	if bal < amt {
		return errors.New("insufficient funds")
	}
	_, err := db.ExecContext(ctx, debit, amt, id)
	return err
}
