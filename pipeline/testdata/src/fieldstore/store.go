// Package fieldstore wires database operations as closures kept in
// unexported func fields (issue 8, adv8 m14). Store is exported, so its
// Mutate is an entry of its own (its fn is arbitrary: UNKNOWN); Withdraw
// checks the balance before save writes it; the audit closure captures
// NewAccounts' penalty, which Audit takes from any balance; the hook is
// handed to outside code, so it stays an entry of its own. Fees and Tolls
// keep one of two closures in their charge field.
package fieldstore

import (
	"context"
	"database/sql"
	"errors"
	"sort"
)

// Store loads, mutates and saves values of type T in one transaction.
type Store[T any] struct {
	db   *sql.DB
	load func(ctx context.Context, tx *sql.Tx, id int64) (T, error)
	save func(ctx context.Context, tx *sql.Tx, id int64, v T) error
}

// Mutate applies fn to the value with that id.
func (s *Store[T]) Mutate(ctx context.Context, id int64, fn func(*T) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := s.load(ctx, tx, id)
	if err != nil {
		return err
	}
	if err := fn(&v); err != nil {
		return err
	}
	if err := s.save(ctx, tx, id, v); err != nil {
		return err
	}
	return tx.Commit()
}

// Account is a row of accounts.
type Account struct{ Balance int64 }

// Accounts is the account service.
type Accounts struct {
	store *Store[Account]
	audit func(ctx context.Context, id int64) error
	hook  func(id int64) error
}

// NewAccounts wires the store.
func NewAccounts(db *sql.DB, penalty int64) *Accounts {
	return &Accounts{
		store: &Store[Account]{
			db: db,
			load: func(ctx context.Context, tx *sql.Tx, id int64) (Account, error) {
				var a Account
				err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&a.Balance)
				return a, err
			},
			save: func(ctx context.Context, tx *sql.Tx, id int64, a Account) error {
				_, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = $1 WHERE id = $2`, a.Balance, id)
				return err
			},
		},
		audit: func(ctx context.Context, id int64) error {
			_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, penalty, id)
			return err
		},
		hook: func(id int64) error {
			_, err := db.Exec(`UPDATE accounts SET balance = -1 WHERE id = $1`, id)
			return err
		},
	}
}

// Withdraw takes amount when the balance covers it.
func (s *Accounts) Withdraw(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("bad amount")
	}
	return s.store.Mutate(ctx, id, func(a *Account) error {
		if a.Balance < amount {
			return errors.New("insufficient funds")
		}
		a.Balance -= amount
		return nil
	})
}

// Audit charges the penalty the service was built with.
func (s *Accounts) Audit(ctx context.Context, id int64) error {
	return s.audit(ctx, id)
}

// Hooks hands the hook to code outside the package.
func (s *Accounts) Hooks() []func(int64) error {
	hs := []func(int64) error{s.hook}
	sort.Slice(hs, func(i, j int) bool { return i < j })
	return hs
}

// Fees charges through the policy its constructor picked: the lenient one
// takes the fee from any balance.
type Fees struct {
	db     *sql.DB
	charge func(db *sql.DB, id int64) error
}

// NewFees picks the policy.
func NewFees(db *sql.DB, strict bool) *Fees {
	f := &Fees{db: db}
	if strict {
		f.charge = func(db *sql.DB, id int64) error {
			_, err := db.Exec(`UPDATE accounts SET balance = balance - 1 WHERE id = $1 AND balance >= 1`, id)
			return err
		}
	} else {
		f.charge = func(db *sql.DB, id int64) error {
			_, err := db.Exec(`UPDATE accounts SET balance = balance - 1 WHERE id = $1`, id)
			return err
		}
	}
	return f
}

// Charge takes the fee.
func (f *Fees) Charge(id int64) error { return f.charge(f.db, id) }

// Tolls charges through one of two policies, both guarded.
type Tolls struct {
	db     *sql.DB
	charge func(db *sql.DB, id int64) error
}

// NewTolls picks the policy.
func NewTolls(db *sql.DB, big bool) *Tolls {
	if big {
		return &Tolls{db: db, charge: func(db *sql.DB, id int64) error {
			_, err := db.Exec(`UPDATE accounts SET balance = balance - 5 WHERE id = $1 AND balance >= 5`, id)
			return err
		}}
	}
	return &Tolls{db: db, charge: func(db *sql.DB, id int64) error {
		_, err := db.Exec(`UPDATE accounts SET balance = balance - 1 WHERE id = $1 AND balance >= 1`, id)
		return err
	}}
}

// Charge takes the toll.
func (t *Tolls) Charge(id int64) error { return t.charge(t.db, id) }
