// Package dec exercises the translation of shopspring/decimal and float
// values (frontend/decimal_test.go).
package dec

import (
	"context"
	"database/sql"

	"github.com/shopspring/decimal"
)

// Account is a row with a NUMERIC balance.
type Account struct {
	ID      int64
	Balance decimal.Decimal
}

// Withdraw scans into a *decimal.Decimal and binds decimals as arguments.
func Withdraw(ctx context.Context, db *sql.DB, id int64, amt decimal.Decimal) error {
	var bal decimal.Decimal
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = ?", id).Scan(&bal); err != nil {
		return err
	}
	if bal.Sub(amt).IsNegative() {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// Load scans into a struct field of type decimal.Decimal.
func Load(ctx context.Context, db *sql.DB, id int64) error {
	var a Account
	if err := db.QueryRowContext(ctx, "SELECT id, balance FROM accounts WHERE id = ?", id).Scan(&a.ID, &a.Balance); err != nil {
		return err
	}
	if a.Balance.LessThan(decimal.Zero) {
		_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = ?", a.Balance.Neg(), id)
		return err
	}
	return nil
}

// Calls uses the modelled API; each result is bound to a named local so
// that the IR shows it.
func Calls(ctx context.Context, db *sql.DB, x, y decimal.Decimal, n int64, f float64) error {
	fromInt := decimal.NewFromInt(n)
	fromFloat := decimal.NewFromFloat(f)
	cents := decimal.New(n, -2)
	parsed := decimal.RequireFromString("12.50")
	parsed2, perr := decimal.NewFromString("-0.125")
	unparsed := decimal.RequireFromString("1e3")
	sum := x.Add(y)
	diff := x.Sub(y)
	prod := x.Mul(decimal.NewFromInt(3))
	neg := x.Neg()
	abs := x.Abs()
	cmp := x.Cmp(y)
	sign := x.Sign()
	eq := x.Equal(y)
	lt := x.LessThan(y)
	le := x.LessThanOrEqual(y)
	gt := x.GreaterThan(y)
	ge := x.GreaterThanOrEqual(y)
	isNeg := x.IsNegative()
	isPos := x.IsPositive()
	isZero := x.IsZero()
	quo := x.Div(y)
	rounded := x.Round(2)
	whole := x.IntPart()
	shifted := x.Shift(3)
	most := decimal.Max(x, y, decimal.Zero)
	total := decimal.Sum(x, y)
	zero := decimal.Zero
	same := x == y
	add := x.Add
	bound := add(y)
	_, err := db.ExecContext(ctx, "INSERT INTO log (a) VALUES (?)",
		fromInt, fromFloat, cents, parsed, parsed2, perr, unparsed, sum, diff, prod, neg, abs,
		cmp, sign, eq, lt, le, gt, ge, isNeg, isPos, isZero, quo, rounded, whole, shifted,
		most, total, zero, same, bound)
	return err
}

// ViaPtr calls a value method through a pointer.
func ViaPtr(ctx context.Context, db *sql.DB, x, y decimal.Decimal) error {
	px := &x
	viaPtr := px.Add(y)
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = 1", viaPtr)
	return err
}

// Floats uses float arithmetic, constants and conversions.
func Floats(ctx context.Context, db *sql.DB, price float64, qty int64, rate float32) error {
	total := price * float64(qty)
	half := total * 0.5
	units := int64(total)
	wide := float64(rate) + 0.1
	_, err := db.ExecContext(ctx, "INSERT INTO log (a) VALUES (?)", total, half, units, wide)
	return err
}

// ScanPtr calls a pointer method of Decimal: the receiver is havocked.
func ScanPtr(ctx context.Context, db *sql.DB, src any) error {
	d := decimal.NewFromInt(1)
	if err := d.Scan(src); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = 1", d)
	return err
}
