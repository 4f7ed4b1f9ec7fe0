// Package mixed holds funds in SERIALIZABLE transactions retried on any
// failure, beside an account opening that runs on its own at the
// default level: the opening is not serializable, so serializability
// cannot speak for every request, but two holds are each other's serial
// order.
package mixed

import (
	"context"
	"database/sql"
	"errors"
)

// Accounts is the account store.
type Accounts struct{ db *sql.DB }

var errInsufficient = errors.New("insufficient available funds")

// Hold reserves amt of the available balance; a failed attempt runs the
// whole transaction again.
func (a *Accounts) Hold(ctx context.Context, id, amt int64) error {
	if amt <= 0 {
		return errors.New("amount must be positive")
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = a.hold(ctx, id, amt); err == nil || errors.Is(err, errInsufficient) {
			return err
		}
	}
	return err
}

func (a *Accounts) hold(ctx context.Context, id, amt int64) error {
	tx, err := a.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var balance, held int64
	if err := tx.QueryRowContext(ctx, "SELECT balance, held FROM accounts WHERE id = $1", id).Scan(&balance, &held); err != nil {
		return err
	}
	if held+amt > balance {
		return errInsufficient
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET held = $1 WHERE id = $2", held+amt, id); err != nil {
		return err
	}
	return tx.Commit()
}

// Open opens an account with nothing held.
func (a *Accounts) Open(ctx context.Context, id, balance int64) error {
	if balance < 0 {
		return errors.New("balance must not be negative")
	}
	_, err := a.db.ExecContext(ctx, "INSERT INTO accounts (id, balance, held) VALUES ($1, $2, 0)", id, balance)
	return err
}
