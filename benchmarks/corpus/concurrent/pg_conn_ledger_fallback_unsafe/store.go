// Package pg_conn_ledger_fallback_unsafe is the account store of a payments service on PostgreSQL.
//
// The transaction is SQL text on one pinned connection (BEGIN, COMMIT and
// ROLLBACK sent through ExecContext). A failed statement aborts it on the
// server, which releases its row locks at once, not at the ROLLBACK the
// code sends later. Withdraw locks the account (FOR UPDATE), checks the
// balance and records the request in a ledger whose primary key is the
// request id; when that INSERT fails (a request id already recorded:
// 23505), the code debits the account on the pool with the balance it
// checked under the lock it no longer holds. Another withdrawal locks the
// row, reads the same balance and debits it meanwhile: the balance ends
// below zero. The errors are named ledgerErr and e, not err.
package pg_conn_ledger_fallback_unsafe

import (
	"context"
	"database/sql"
	"errors"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	ErrBadAmount         = errors.New("accounts: amount must be positive")
	ErrInsufficientFunds = errors.New("accounts: insufficient funds")
)

// Store is the account repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Withdraw debits amount from account id if its balance covers it, and
// records the request in the ledger.
func (s *Store) Withdraw(ctx context.Context, requestID, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	conn, e := s.db.Conn(ctx)
	if e != nil {
		return e
	}
	defer conn.Close()
	if _, e := conn.ExecContext(ctx, "BEGIN"); e != nil {
		return e
	}
	var balance int64
	if e := conn.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&balance); e != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return e
	}
	if balance < amount {
		conn.ExecContext(ctx, "ROLLBACK")
		return ErrInsufficientFunds
	}
	if _, ledgerErr := conn.ExecContext(ctx, "INSERT INTO withdrawals (request_id, account_id, amount) VALUES ($1, $2, $3)", requestID, id, amount); ledgerErr != nil {
		// The ledger refused the entry: debit the account directly, its
		// balance was checked above.
		log.Printf("withdraw: ledger: %v", ledgerErr)
		_, e := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id)
		conn.ExecContext(ctx, "ROLLBACK")
		return e
	}
	if _, e := conn.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); e != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return e
	}
	_, e = conn.ExecContext(ctx, "COMMIT")
	return e
}
