// Command server wires store.Loose into the service.
package main

import (
	"context"
	"database/sql"

	"example.com/otherimpl/store"
	"example.com/otherimpl/svc"
)

func main() {
	db, _ := sql.Open("sqlite", "file:bank.db")
	s := &svc.Service{Ledger: &store.Loose{DB: db}, DB: db}
	_ = s.Debit(context.Background(), 1, 10)
}
