package groundtruth_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// unsignedCase is one UPDATE run with Go arguments of the types given.
type unsignedCase struct {
	set     string // the SET expression for balance (placeholders in order)
	balance int64  // the row's balance before
	args    []any  // the SET's arguments (the key is bound last)
	// fails: MySQL's rule (+ - * of integers one of which is unsigned is
	// BIGINT UNSIGNED; a negative result is Error 1690), which the model
	// (dbmodel unsigned.go) encodes; want: the balance after, if it does
	// not fail.
	fails bool
	want  int64
}

// unsignedCases are the shapes the model marks, and the ones it leaves
// signed (a signed argument, a uint64 beyond the MySQL-only rule).
var unsignedCases = []unsignedCase{
	{set: "balance - ?", balance: 0, args: []any{uint64(1)}, fails: true},
	{set: "balance - ?", balance: 5, args: []any{uint64(3)}, want: 2},
	{set: "balance - ?", balance: 0, args: []any{uint32(1)}, fails: true},
	{set: "balance - ?", balance: 0, args: []any{uint(7)}, fails: true},
	{set: "balance - ?", balance: 0, args: []any{int64(1)}, want: -1},
	{set: "balance + ?", balance: -5, args: []any{uint64(3)}, fails: true},
	{set: "balance + ?", balance: -5, args: []any{uint64(10)}, want: 5},
	// An intermediate result counts, not only the stored one.
	{set: "balance - ? + 10", balance: 0, args: []any{uint64(5)}, fails: true},
	{set: "balance - (? + 1)", balance: 1, args: []any{uint64(1)}, fails: true},
	{set: "? * balance", balance: -1, args: []any{uint64(2)}, fails: true},
	{set: "balance - ? * 2", balance: 4, args: []any{uint64(2)}, want: 0},
}

// TestMySQLUnsignedArgument runs UPDATEs computing with Go unsigned
// arguments on each engine through its usual driver (prepared statements:
// go-sql-driver's default binary protocol). On MariaDB the rule above
// holds; PostgreSQL (pgx) and SQLite (modernc) compute signed, as the
// model does for them, and refuse a uint64 above MaxInt64 (an error the
// model does not need: it only removes runs).
func TestMySQLUnsignedArgument(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	ctx := context.Background()
	for _, d := range groundtruth.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			db, _, err := engines.get(t, d).NewDatabase(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.ExecContext(ctx, `CREATE TABLE savings (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)`); err != nil {
				t.Fatal(err)
			}
			for _, c := range unsignedCases {
				set := c.set
				for i := range c.args {
					set = strings.Replace(set, "?", d.Placeholder(i+1), 1)
				}
				q := "UPDATE savings SET balance = " + set + " WHERE id = " + d.Placeholder(len(c.args)+1)
				if _, err := db.ExecContext(ctx, `DELETE FROM savings`); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ExecContext(ctx, `INSERT INTO savings VALUES (1, `+d.Placeholder(1)+`)`, c.balance); err != nil {
					t.Fatal(err)
				}
				_, execErr := db.ExecContext(ctx, q, append(append([]any{}, c.args...), int64(1))...)
				var got int64
				if err := db.QueryRowContext(ctx, `SELECT balance FROM savings WHERE id = 1`).Scan(&got); err != nil {
					t.Fatal(err)
				}
				fails, want := c.fails, c.want
				if d != groundtruth.MySQL && fails {
					fails, want = false, signedResult(c)
				}
				switch {
				case fails && execErr == nil:
					t.Errorf("%s with balance %d, args %v: succeeded (balance %d), want Error 1690", q, c.balance, c.args, got)
				case fails && !strings.Contains(execErr.Error(), "1690"):
					t.Errorf("%s with balance %d, args %v: %v, want Error 1690", q, c.balance, c.args, execErr)
				case fails && got != c.balance:
					t.Errorf("%s failed but changed the balance to %d", q, got)
				case !fails && (execErr != nil || got != want):
					t.Errorf("%s with balance %d, args %v: balance %d, err %v; want %d", q, c.balance, c.args, got, execErr, want)
				}
			}
			// Beyond MaxInt64: MariaDB takes it as unsigned, the other
			// drivers refuse the argument.
			_, err = db.ExecContext(ctx, "UPDATE savings SET balance = balance + "+d.Placeholder(1)+" WHERE id = "+d.Placeholder(2), uint64(math.MaxInt64)+1, int64(1))
			if d != groundtruth.MySQL && err == nil {
				t.Errorf("%s accepted a uint64 above MaxInt64", d)
			}
		})
	}
}

// signedResult is a case's SET evaluated with signed arithmetic.
func signedResult(c unsignedCase) int64 {
	a := func(i int) int64 {
		switch v := c.args[i].(type) {
		case uint64:
			return int64(v)
		case uint32:
			return int64(v)
		case uint:
			return int64(v)
		case int64:
			return v
		}
		return 0
	}
	b := c.balance
	switch c.set {
	case "balance - ?":
		return b - a(0)
	case "balance + ?":
		return b + a(0)
	case "balance - ? + 10":
		return b - a(0) + 10
	case "balance - (? + 1)":
		return b - (a(0) + 1)
	case "? * balance":
		return a(0) * b
	case "balance - ? * 2":
		return b - a(0)*2
	}
	return 0
}
