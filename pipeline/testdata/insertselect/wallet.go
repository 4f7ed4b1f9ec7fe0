// Package insertselect inserts rows of wallets selected from wallets
// (pipeline's TestInsertSelectTracked; adv16 ledgercte.Split).
package insertselect

import (
	"context"
	"database/sql"
	"errors"
)

var ErrFunds = errors.New("insufficient funds")

// Split opens a pocket funded from part of a wallet's balance, without
// checking it: UNSAFE.
func Split(ctx context.Context, db *sql.DB, newID, fromID, part int64) error {
	if part <= 0 {
		return errors.New("part must be positive")
	}
	_, err := db.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT $1, balance - $2 FROM wallets WHERE id = $3`,
		newID, part, fromID)
	return err
}

// SplitChecked checks the funds in the SELECT: SAFE.
func SplitChecked(ctx context.Context, db *sql.DB, newID, fromID, part int64) error {
	if part <= 0 {
		return errors.New("part must be positive")
	}
	res, err := db.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT $1, $2 FROM wallets WHERE id = $3 AND balance >= $2`,
		newID, part, fromID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrFunds
	}
	return nil
}

// Clone copies a wallet's balance into a new wallet: SAFE, the source
// row is a wallet that keeps the constraint.
func Clone(ctx context.Context, db *sql.DB, newID, fromID int64) error {
	_, err := db.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT $1, balance FROM wallets WHERE id = $2`, newID, fromID)
	return err
}

// CloneAfterFee charges a fee to a wallet in a transaction, then clones
// the wallet as the transaction sees it, the fee taken: UNSAFE where the
// fee overdraws it and the clone copies the negative balance before the
// fee is given back (the clone's own row breaks it, committed).
func CloneAfterFee(ctx context.Context, db *sql.DB, newID, fromID, fee int64) error {
	if fee <= 0 {
		return errors.New("fee must be positive")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance - $1 WHERE id = $2`, fee, fromID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO wallets (id, balance) SELECT $1, balance FROM wallets WHERE id = $2`, newID, fromID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, fee, fromID); err != nil {
		return err
	}
	return tx.Commit()
}
