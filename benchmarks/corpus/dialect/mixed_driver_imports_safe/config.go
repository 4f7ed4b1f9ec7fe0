// Package mixed_driver_imports_safe is a point-of-sale module of two services: the ledger
// (wallets, package ledger, on MySQL) and the reports (page views,
// package reports, on PostgreSQL), each on its own database.
package mixed_driver_imports_safe

// Config names the two databases.
type Config struct {
	WalletsDSN string
	ReportsDSN string
}
