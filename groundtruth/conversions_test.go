package groundtruth_test

import (
	"context"
	"database/sql"
	"math"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestGoConversions runs, on each engine through its usual driver
// (modernc.org/sqlite, pgx's stdlib, go-sql-driver/mysql), the Go-side
// conversions the model assumes (frontend and dbmodel scandest.go):
//
//   - an integer column scanned into a Go bool: 0 and 1 succeed, 3 and -1
//     fail the Scan;
//   - an integer column scanned into a Go unsigned or narrower integer:
//     a value outside the type's range (-1 into uint64, 300 into uint8)
//     fails the Scan;
//   - a uint64 argument of 2^63: modernc.org/sqlite refuses it (database/sql's
//     default converter); go-sql-driver binds it (BIGINT UNSIGNED) —
//     only SQLite's refusal is modelled.
func TestGoConversions(t *testing.T) {
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
			if _, err := db.ExecContext(ctx, `CREATE TABLE flags (id BIGINT PRIMARY KEY, v BIGINT NOT NULL, n NUMERIC(30,0))`); err != nil {
				t.Fatal(err)
			}
			for _, v := range []int64{0, 1, 3, -1, 300} {
				if _, err := db.ExecContext(ctx, `INSERT INTO flags (id, v) VALUES (`+d.Placeholder(1)+`, `+d.Placeholder(2)+`)`, v, v); err != nil {
					t.Fatal(err)
				}
			}
			q := `SELECT v FROM flags WHERE id = ` + d.Placeholder(1)
			scan := func(id int64, dest any) error { return db.QueryRowContext(ctx, q, id).Scan(dest) }
			for _, c := range []struct {
				id   int64
				dest func() any
				ok   bool
			}{
				{0, func() any { return new(bool) }, true},
				{1, func() any { return new(bool) }, true},
				{3, func() any { return new(bool) }, false},
				{-1, func() any { return new(bool) }, false},
				{-1, func() any { return new(uint64) }, false},
				{3, func() any { return new(uint64) }, true},
				{300, func() any { return new(uint8) }, false},
				{300, func() any { return new(int16) }, true},
			} {
				dest := c.dest()
				if err := scan(c.id, dest); (err == nil) != c.ok {
					t.Errorf("Scan of %d into %T: err = %v, want success %v", c.id, dest, err, c.ok)
				}
			}
			// A uint64 of 2^63 bound as an argument.
			_, err = db.ExecContext(ctx, `UPDATE flags SET n = `+d.Placeholder(1)+` WHERE id = 0`, uint64(1)<<63)
			switch d {
			case groundtruth.SQLite:
				if err == nil || !strings.Contains(err.Error(), "high bit set") {
					t.Errorf("uint64 2^63 argument on SQLite: err = %v, want database/sql's refusal", err)
				}
			case groundtruth.MySQL:
				if err != nil {
					t.Errorf("uint64 2^63 argument on MariaDB: %v, want it bound as BIGINT UNSIGNED", err)
				}
			default:
				t.Logf("uint64 2^63 argument on %s (not modelled): err = %v", d, err)
			}
			if d == groundtruth.MySQL {
				insertIgnoreNull(ctx, t, db)
			}
		})
	}
}

// TestNaNArgument binds a NaN float64 as the argument of `balance +
// ?` on a REAL/DOUBLE NOT NULL column (corpus decimal/sqlite_nan_refund_safe's
// Credit): SQLite binds NaN as NULL, so the NOT NULL column refuses the
// UPDATE; PostgreSQL stores NaN. The model marks a NaN argument as an
// approximation; this records what each engine does.
func TestNaNArgument(t *testing.T) {
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
			typ := map[groundtruth.Dialect]string{groundtruth.SQLite: "REAL", groundtruth.Postgres: "DOUBLE PRECISION", groundtruth.MySQL: "DOUBLE"}[d]
			if err := groundtruth.ExecAll(ctx, db, `CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance `+typ+` NOT NULL)`,
				`INSERT INTO accounts VALUES (1, 5)`); err != nil {
				t.Fatal(err)
			}
			_, execErr := db.ExecContext(ctx, `UPDATE accounts SET balance = balance + `+d.Placeholder(1)+` WHERE id = 1`, math.NaN())
			var bal sql.NullFloat64
			if err := db.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = 1`).Scan(&bal); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: UPDATE with NaN: err = %v; balance = %v", d, execErr, bal)
			if d == groundtruth.SQLite && (execErr == nil || bal.Float64 != 5) {
				t.Errorf("SQLite: NaN argument: err = %v, balance %v; want the NOT NULL column to refuse it", execErr, bal)
			}
		})
	}
}

// insertIgnoreNull checks MariaDB's INSERT IGNORE of NULL into NOT NULL
// columns (in the engine's default strict mode): the row is stored with
// the implicit defaults, 0 and ” (dbmodel insertignore.go).
func insertIgnoreNull(ctx context.Context, t *testing.T, db *sql.DB) {
	t.Helper()
	if err := groundtruth.ExecAll(ctx, db, `CREATE TABLE wallets (user_id BIGINT PRIMARY KEY, cap BIGINT NOT NULL, note VARCHAR(20) NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO wallets (user_id, cap, note) VALUES (1, NULL, NULL)`); err == nil {
		t.Errorf("INSERT of NULL into NOT NULL columns without IGNORE succeeded; want strict mode's error")
	}
	if _, err := db.ExecContext(ctx, `INSERT IGNORE INTO wallets (user_id, cap, note) VALUES (?, ?, NULL)`, 2, nil); err != nil {
		t.Fatal(err)
	}
	var capV int64
	var note string
	if err := db.QueryRowContext(ctx, `SELECT cap, note FROM wallets WHERE user_id = 2`).Scan(&capV, &note); err != nil {
		t.Fatal(err)
	}
	if capV != 0 || note != "" {
		t.Errorf("INSERT IGNORE of NULLs stored cap %d, note %q; want 0 and ''", capV, note)
	}
}
