// Package gormonly writes wallets through GORM only.
package gormonly

import (
	"database/sql"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// Wallet is the GORM model of the wallets table.
type Wallet struct {
	ID      int64
	Balance int64
}

// Open wraps a database/sql pool in GORM.
func Open(db *sql.DB) (*gorm.DB, error) {
	return gorm.Open(postgres.New(postgres.Config{Conn: db}), &gorm.Config{})
}

// Withdraw debits amt without a guard.
func Withdraw(g *gorm.DB, id, amt int64) error {
	return g.Model(&Wallet{}).Where("id = ?", id).Update("balance", gorm.Expr("balance - ?", amt)).Error
}
