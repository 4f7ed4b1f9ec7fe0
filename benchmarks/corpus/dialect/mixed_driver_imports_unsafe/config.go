// Package mixed_driver_imports_unsafe is a point-of-sale module of two services: the ledger
// (wallets, package ledger, on SQLite) and the reports (page views,
// package reports, on MySQL), each on its own database.
package mixed_driver_imports_unsafe

// Config names the two databases.
type Config struct {
	WalletsDSN string
	ReportsDSN string
}
