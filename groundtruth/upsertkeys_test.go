package groundtruth_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// keyOrderCase is an upsert without a conflict target whose new row
// conflicts with two rows, each on another unique key: want is the
// table after it, "id:v" for each row.
type keyOrderCase struct {
	name   string
	create string // a table t with columns id, a, b, v
	insert string // the upsert of (id, a, b) = (3, 11, 20)
	want   string
}

// TestUpsertConflictKeyOrder runs upserts without a conflict target whose
// new row (id 3, a 11, b 20) conflicts with row 1 (b 20) on one key and
// with row 2 (a 11) on another, and asserts which row the engine updates
// (issue 8, dbmodel conflictkeys.go): MariaDB's ON DUPLICATE KEY UPDATE
// updates the row of the first key that conflicts, the PRIMARY KEY, then
// the UNIQUE keys without a nullable column in their order, then the
// others; a declared order does not move the PRIMARY KEY.
func TestUpsertConflictKeyOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	const seed = "INSERT INTO t (id, a, b, v) VALUES (1, 10, 20, 0), (2, 11, 21, 0)"
	const (
		first  = "1:0 2:1" // the row with a = 11 (row 2) updated
		second = "1:1 2:0" // the row with b = 20 (row 1) updated
		none   = "1:0 2:0" // no row updated
		pk     = "1:0 2:1" // the row with id = 2 updated
		both   = "3:7"     // both rows replaced by the new one
	)
	up := "INSERT INTO t (id, a, b, v) VALUES (3, 11, 20, 0) ON DUPLICATE KEY UPDATE v = v + 1"
	pkUp := "INSERT INTO t (id, a, b, v) VALUES (2, 10, 99, 0) ON DUPLICATE KEY UPDATE v = v + 1"
	sqUp := "INSERT INTO t (id, a, b, v) VALUES (3, 11, 20, 0) ON CONFLICT DO UPDATE SET v = v + 1"
	sqPk := "INSERT INTO t (id, a, b, v) VALUES (2, 10, 99, 0) ON CONFLICT DO UPDATE SET v = v + 1"
	cases := map[groundtruth.Dialect][]keyOrderCase{
		// MariaDB: the PRIMARY KEY, then the UNIQUE keys without a
		// nullable column in their order, then the others.
		groundtruth.MySQL: {
			{"primary key first", "CREATE TABLE t (a BIGINT NOT NULL UNIQUE, b BIGINT NOT NULL UNIQUE, id BIGINT PRIMARY KEY, v BIGINT NOT NULL)", pkUp, pk},
			{"unique keys in order", "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT NOT NULL, b BIGINT NOT NULL, v BIGINT NOT NULL, UNIQUE KEY ua (a), UNIQUE KEY ub (b))", up, first},
			{"unique keys in the other order", "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT NOT NULL, b BIGINT NOT NULL, v BIGINT NOT NULL, UNIQUE KEY ub (b), UNIQUE KEY ua (a))", up, second},
			{"a nullable unique key last", "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT UNIQUE, b BIGINT NOT NULL UNIQUE, v BIGINT NOT NULL)", up, second},
			{"replace", "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT NOT NULL UNIQUE, b BIGINT NOT NULL UNIQUE, v BIGINT NOT NULL)",
				"REPLACE INTO t (id, a, b, v) VALUES (3, 11, 20, 7)", both},
		},
		// SQLite: the rowid (INTEGER PRIMARY KEY) first, then the UNIQUE
		// keys the LAST declared first; OR REPLACE deletes every row
		// that conflicts.
		groundtruth.SQLite: {
			{"primary key first", "CREATE TABLE t (a INTEGER NOT NULL UNIQUE, b INTEGER NOT NULL UNIQUE, id INTEGER PRIMARY KEY, v INTEGER NOT NULL)", sqPk, pk},
			{"unique keys", "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL UNIQUE, b INTEGER NOT NULL UNIQUE, v INTEGER NOT NULL)", sqUp, second},
			{"unique keys in the other order", "CREATE TABLE t (id INTEGER PRIMARY KEY, b INTEGER NOT NULL UNIQUE, a INTEGER NOT NULL UNIQUE, v INTEGER NOT NULL)", sqUp, first},
			{"or replace", "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL UNIQUE, b INTEGER NOT NULL UNIQUE, v INTEGER NOT NULL)",
				"INSERT OR REPLACE INTO t (id, a, b, v) VALUES (3, 11, 20, 7)", both},
		},
		// PostgreSQL: DO NOTHING without a target skips the row on a
		// conflict with any unique key.
		groundtruth.Postgres: {
			{"do nothing", "CREATE TABLE t (id BIGINT PRIMARY KEY, a BIGINT NOT NULL UNIQUE, b BIGINT NOT NULL UNIQUE, v BIGINT NOT NULL)",
				"INSERT INTO t (id, a, b, v) VALUES (3, 11, 20, 0) ON CONFLICT DO NOTHING", none},
		},
	}
	ctx := context.Background()
	for _, d := range groundtruth.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			eng := engines.get(t, d)
			for _, tc := range cases[d] {
				t.Run(tc.name, func(t *testing.T) {
					db, _, err := eng.NewDatabase(ctx)
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					got, err := upsertedRow(ctx, db, tc.create, seed, tc.insert)
					if err != nil {
						t.Fatal(err)
					}
					if got != tc.want {
						t.Errorf("%s: the rows are %q after it, want %q", tc.insert, got, tc.want)
					}
				})
			}
		})
	}
}

// upsertedRow creates and seeds the table, runs the upsert, and returns
// the rows after it, "id:v" each, in the order of id.
func upsertedRow(ctx context.Context, db *sql.DB, create, seed, upsert string) (string, error) {
	for _, q := range []string{create, seed, upsert} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return "", fmt.Errorf("%s: %w", q, err)
		}
	}
	rows, err := db.QueryContext(ctx, "SELECT id, v FROM t ORDER BY id")
	if err != nil {
		return "", fmt.Errorf("reading the rows: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id, v int64
		if err := rows.Scan(&id, &v); err != nil {
			return "", fmt.Errorf("reading the rows: %w", err)
		}
		ids = append(ids, fmt.Sprintf("%d:%d", id, v))
	}
	return strings.Join(ids, " "), rows.Err()
}
