// Package decorate calls a Debiter through the field of a logging
// decorator that holds one of several implementations: two guarded
// (Guarded, Premium, and their pointer forms) and one unguarded (Admin).
package decorate

import (
	"context"
	"database/sql"
	"errors"
)

type Debiter interface {
	Debit(ctx context.Context, id, amount int64) error
}

type Guarded struct{ DB *sql.DB }

func (g Guarded) Debit(ctx context.Context, id, amount int64) error {
	return guardedDebit(ctx, g.DB, id, amount)
}

type Premium struct{ DB *sql.DB }

func (p Premium) Debit(ctx context.Context, id, amount int64) error {
	return guardedDebit(ctx, p.DB, id, amount)
}

type GuardedPtr struct{ DB *sql.DB }

func (g *GuardedPtr) Debit(ctx context.Context, id, amount int64) error {
	return guardedDebit(ctx, g.DB, id, amount)
}

type PremiumPtr struct{ DB *sql.DB }

func (p *PremiumPtr) Debit(ctx context.Context, id, amount int64) error {
	return guardedDebit(ctx, p.DB, id, amount)
}

func guardedDebit(ctx context.Context, db *sql.DB, id, amount int64) error {
	res, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?`, amount, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("insufficient funds")
	}
	return nil
}

type Admin struct{ DB *sql.DB }

func (a Admin) Debit(ctx context.Context, id, amount int64) error {
	_, err := a.DB.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, amount, id)
	return err
}

type Logged struct{ Inner Debiter }

func (l Logged) Debit(ctx context.Context, id, amount int64) error {
	return l.Inner.Debit(ctx, id, amount)
}

// WithdrawChoice: Guarded or Premium.
func WithdrawChoice(ctx context.Context, db *sql.DB, id, amount int64, premium bool) error {
	var d Debiter = Guarded{DB: db}
	if premium {
		d = Premium{DB: db}
	}
	return Logged{Inner: d}.Debit(ctx, id, amount)
}

// WithdrawAdmin: Guarded, or Admin when admin is set.
func WithdrawAdmin(ctx context.Context, db *sql.DB, id, amount int64, admin bool) error {
	var d Debiter = Guarded{DB: db}
	if admin {
		d = Admin{DB: db}
	}
	return Logged{Inner: d}.Debit(ctx, id, amount)
}

// WithdrawPtr: *GuardedPtr or *PremiumPtr.
func WithdrawPtr(ctx context.Context, db *sql.DB, id, amount int64, premium bool) error {
	var d Debiter = &GuardedPtr{DB: db}
	if premium {
		d = &PremiumPtr{DB: db}
	}
	return Logged{Inner: d}.Debit(ctx, id, amount)
}

// WithdrawNested: a φ of a φ, Guarded, Premium or Admin when admin is set.
func WithdrawNested(ctx context.Context, db *sql.DB, id, amount int64, premium, admin bool) error {
	var d Debiter = Guarded{DB: db}
	if premium {
		d = Premium{DB: db}
	}
	if admin {
		d = Admin{DB: db}
	}
	return Logged{Inner: d}.Debit(ctx, id, amount)
}

func pick(db *sql.DB, premium bool) Debiter {
	if premium {
		return Premium{DB: db}
	}
	return Guarded{DB: db}
}

func pickAdmin(db *sql.DB, admin bool) Debiter {
	if admin {
		return Admin{DB: db}
	}
	return Guarded{DB: db}
}

// WithdrawPicked: a helper returns Guarded or Premium.
func WithdrawPicked(ctx context.Context, db *sql.DB, id, amount int64, premium bool) error {
	return Logged{Inner: pick(db, premium)}.Debit(ctx, id, amount)
}

// WithdrawPickedAdmin: a helper returns Guarded or Admin.
func WithdrawPickedAdmin(ctx context.Context, db *sql.DB, id, amount int64, admin bool) error {
	return Logged{Inner: pickAdmin(db, admin)}.Debit(ctx, id, amount)
}

// WithdrawGiven: the caller builds the decorator; its field may hold any
// implementation.
func WithdrawGiven(ctx context.Context, l Logged, id, amount int64) error {
	return l.Debit(ctx, id, amount)
}

type holder struct{ d Debiter }

// WithdrawKept keeps the Debiter chosen in the first of n >= 2 rounds,
// Admin when adminFirst, and debits through it after the loop, where the
// last round's choice is always Guarded.
func WithdrawKept(ctx context.Context, db *sql.DB, id, amount int64, n int, adminFirst bool) error {
	if n < 2 {
		return errors.New("n < 2")
	}
	h := &holder{}
	for i := 0; i < n; i++ {
		var d Debiter = Guarded{DB: db}
		if i == 0 && adminFirst {
			d = Admin{DB: db}
		}
		if i == 0 {
			h.d = d
		}
	}
	return Logged{Inner: h.d}.Debit(ctx, id, amount)
}
