// Package pg_conn_ledger_guarded_fallback_safe is the account store of a payments service on PostgreSQL.
//
// The ledger fallback of pg_conn_ledger_fallback_unsafe, fixed: when the
// ledger INSERT fails, the error has aborted the transaction block sent as
// SQL text and released its lock on the account, so the balance checked
// under it may be stale; the fallback debit on the pool re-checks it in its
// WHERE (balance >= $1) and reports a refused debit by RowsAffected. The
// errors are named ledgerErr, e and nErr, not err.
package pg_conn_ledger_guarded_fallback_safe

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
		// The ledger refused the entry, and the error ended the
		// transaction and its lock: debit the account directly, checking
		// the balance again.
		log.Printf("withdraw: ledger: %v", ledgerErr)
		res, e := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amount, id)
		conn.ExecContext(ctx, "ROLLBACK")
		if e != nil {
			return e
		}
		if n, nErr := res.RowsAffected(); nErr != nil || n == 0 {
			return ErrInsufficientFunds
		}
		return nil
	}
	if _, e := conn.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id); e != nil {
		conn.ExecContext(ctx, "ROLLBACK")
		return e
	}
	_, e = conn.ExecContext(ctx, "COMMIT")
	return e
}
