// Package sqlite_wallet_tx_safe is the wallet of a desktop app on an
// embedded SQLite database (an independent tester's p46).
//
// Check-then-act in one transaction: BEGIN (deferred), a plain SELECT of
// the balance, a Go check, a relative debit, COMMIT. SQLite runs one
// writing transaction at a time, and a transaction that read the database
// before another one committed a write cannot write any more (rollback
// journal: the writer cannot commit while the reader holds its shared
// lock, and the reader's write fails with SQLITE_BUSY; WAL:
// SQLITE_BUSY_SNAPSHOT). Two withdrawals of 100 from 100: one debits, the
// other's UPDATE fails (or it reads 0 and is refused). SpendLenient
// ignores the UPDATE's error and commits: the failed statement is undone
// alone, and the commit publishes nothing. Deposit credits with one
// statement, a transaction of its own.
package sqlite_wallet_tx_safe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	_ "modernc.org/sqlite"
)

var (
	ErrBadAmount         = errors.New("wallet: amount must be positive")
	ErrInsufficientFunds = errors.New("wallet: insufficient funds")
)

// Store is the wallet repository.
type Store struct{ db *sql.DB }

func NewStore(db *sql.DB) *Store { return &Store{db: db} }

// Open opens the wallet file with a busy timeout: a statement that needs
// the lock another connection holds waits for it.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(2000)")
	if err != nil {
		return nil, fmt.Errorf("open wallet: %w", err)
	}
	return NewStore(db), nil
}

// Spend debits amount from account id if its balance covers it.
func (s *Store) Spend(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&balance); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	return tx.Commit()
}

// SpendLenient is Spend that commits even when the debit fails. It asks
// for READ COMMITTED, which the SQLite driver ignores: the transaction is
// as serializable as Spend's.
func (s *Store) SpendLenient(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	defer tx.Rollback()
	var balance int64
	if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&balance); err != nil {
		return fmt.Errorf("spend: %w", err)
	}
	if balance < amount {
		return ErrInsufficientFunds
	}
	_, _ = tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return tx.Commit()
}

// Deposit credits amount to account id.
func (s *Store) Deposit(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return ErrBadAmount
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + ? WHERE id = ?`, amount, id); err != nil {
		return fmt.Errorf("deposit: %w", err)
	}
	return nil
}
