// Package flagpool: a helper whose pool statement (ROLLBACK TO sent on
// the pool, not modelled) runs only when a flag is true.
package flagpool

import (
	"context"
	"database/sql"
)

func pay(ctx context.Context, db *sql.DB, card, amount int64, onPool bool) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SAVEPOINT s`); err != nil {
		return err
	}
	var gift int64
	if err := tx.QueryRowContext(ctx, `UPDATE cards SET gift = gift - $1 WHERE id = $2 RETURNING gift`, amount, card).Scan(&gift); err != nil {
		return err
	}
	if gift < 0 {
		if onPool {
			db.ExecContext(ctx, `ROLLBACK TO SAVEPOINT s`)
		} else if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT s`); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Pay never runs the pool statement.
func Pay(ctx context.Context, db *sql.DB, card, amount int64) error {
	return pay(ctx, db, card, amount, false)
}

// PayLegacy does.
func PayLegacy(ctx context.Context, db *sql.DB, card, amount int64) error {
	return pay(ctx, db, card, amount, true)
}

// PayEither lets the caller choose.
func PayEither(ctx context.Context, db *sql.DB, card, amount int64, legacy bool) error {
	return pay(ctx, db, card, amount, legacy)
}

// PayNotLegacy negates a constant on the way.
func PayNotLegacy(ctx context.Context, db *sql.DB, card, amount int64) error {
	legacy := false
	return pay(ctx, db, card, amount, legacy)
}
