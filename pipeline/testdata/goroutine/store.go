// Package goroutine starts goroutines in entries that write accounts
// (pipeline's TestGoroutines).
package goroutine

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"sync"
	"time"
)

var ErrFunds = errors.New("insufficient funds")

type Store struct{ db *sql.DB }

// debit takes amt off account id where the balance covers it.
func (s *Store) debit(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrFunds
	}
	res, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", amt, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrFunds
	}
	return nil
}

// audit records a debit in another table.
func (s *Store) audit(ctx context.Context, id, amt int64) {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO audit_log (account_id, amount) VALUES ($1, $2)", id, amt); err != nil {
		log.Printf("audit: %v", err)
	}
}

// AuditedDebit debits, then records the debit in a goroutine
// (fire-and-forget): SAFE, the audit row commutes with the rest.
func (s *Store) AuditedDebit(ctx context.Context, id, amt int64) error {
	if err := s.debit(ctx, id, amt); err != nil {
		return err
	}
	go s.audit(context.Background(), id, amt)
	return nil
}

// LoggedDebit logs in a goroutine before the debit: SAFE.
func (s *Store) LoggedDebit(ctx context.Context, id, amt int64) error {
	go func() { log.Printf("debit %d of %d", amt, id) }()
	return s.debit(ctx, id, amt)
}

// FeeDebit debits, then charges a fee in a goroutine without a check:
// UNSAFE, the goroutine's own write breaks the constraint.
func (s *Store) FeeDebit(ctx context.Context, id, amt int64) error {
	if err := s.debit(ctx, id, amt); err != nil {
		return err
	}
	go func() {
		if _, err := s.db.ExecContext(context.Background(), "UPDATE accounts SET balance = balance - 1 WHERE id = $1", id); err != nil {
			log.Print(err)
		}
	}()
	return nil
}

// ResetAsync runs a database call as the goroutine itself: UNSAFE.
func (s *Store) ResetAsync(id int64) {
	go s.db.Exec("UPDATE accounts SET balance = -1 WHERE id = $1", id)
}

// Heartbeat starts a goroutine that never ends, then debits without a
// check: UNSAFE (the rest of the entry runs while the goroutine loops).
func (s *Store) Heartbeat(ctx context.Context, id, amt int64) error {
	go func() {
		for {
			log.Print("alive")
			time.Sleep(time.Second)
		}
	}()
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id)
	return err
}

// Reserve debits in a goroutine and reads the balance meanwhile:
// UNKNOWN, the read and the debit touch the same cells.
func (s *Store) Reserve(ctx context.Context, id, amt int64) (int64, error) {
	go s.debit(context.Background(), id, amt)
	var bal int64
	err := s.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal)
	return bal, err
}

// FeeFromGoroutine reads the fee in a goroutine into a variable the
// entry reads after waiting: UNKNOWN, shared memory.
func (s *Store) FeeFromGoroutine(ctx context.Context, id int64) error {
	var fee int64
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := s.db.QueryRowContext(ctx, "SELECT fee FROM fees WHERE id = 1").Scan(&fee); err != nil {
			fee = 1
		}
	})
	wg.Wait()
	if fee <= 0 {
		return ErrFunds
	}
	return s.debit(ctx, id, fee)
}

// DebitAll debits every account in parallel: UNKNOWN, each goroutine's
// UPDATE touches the cells of the others.
func (s *Store) DebitAll(ctx context.Context, ids []int64, amt int64) error {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = s.debit(ctx, id, amt) })
	}
	wg.Wait()
	return nil
}

// TxAsync runs a statement of its transaction in a goroutine: UNKNOWN,
// the goroutine shares the transaction with the COMMIT.
func (s *Store) TxAsync(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrFunds
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	go tx.ExecContext(ctx, "INSERT INTO audit_log (account_id, amount) VALUES ($1, $2)", id, amt)
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amt, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Ship checks the balance, takes amt in a goroutine without a check and
// one unit itself with a guard: UNKNOWN, the two UPDATEs write the same
// cells (the handler's first leaves -1 from balance amt; the goroutine's
// first does not).
func (s *Store) Ship(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrFunds
	}
	var bal int64
	if err := s.db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
		return err
	}
	if bal < amt {
		return ErrFunds
	}
	go func() {
		_, _ = s.db.ExecContext(context.Background(), "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id)
	}()
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = $1 AND balance >= 1", id)
	return err
}

// Refund credits amt in a goroutine, then changes amt: UNKNOWN, the
// goroutine may read amt after the change.
func (s *Store) Refund(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return ErrFunds
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance + $1 WHERE id = $2", amt, id)
	}()
	amt = -amt
	wg.Wait()
	return nil
}
