// Package gormw writes wallets through GORM, whose SQL dbverify does not
// read, and through database/sql.
package gormw

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// Wallet is the GORM model of the wallets table.
type Wallet struct {
	ID      int64
	Balance int64
}

// Deposit is a database/sql writer of wallets.
func Deposit(ctx context.Context, db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE wallets SET balance = balance + $1 WHERE id = $2`, amt, id)
	return err
}

// Penalty charges a fee through GORM: UPDATE "wallets" SET "balance"=balance - $1 WHERE id = $2.
func Penalty(g *gorm.DB, id, fee int64) error {
	return g.Model(&Wallet{}).Where("id = ?", id).Update("balance", gorm.Expr("balance - ?", fee)).Error
}

// Adjust reads the wallet and saves it with amt added.
func Adjust(g *gorm.DB, id, amt int64) error {
	var w Wallet
	if err := g.First(&w, id).Error; err != nil {
		return err
	}
	w.Balance += amt
	return g.Save(&w).Error
}

// Credit saves the wallet through a method value of the handle.
func Credit(g *gorm.DB, w *Wallet) error {
	save := g.Save
	return save(w).Error
}
