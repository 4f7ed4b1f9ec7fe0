package groundtruth_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// ignoreCase is one statement run on a fresh table and what it must do:
// fail, or succeed leaving the rows want (id: c, in id order, "" none).
// Lines before the last of stmt are setup, which must succeed.
type ignoreCase struct {
	stmt string
	fail bool
	want string
}

// TestIgnoreWrites checks what the engines do with a NULL for a NOT NULL
// column and a value out of an integer column's range under the conflict
// clauses (dbmodel insertignore.go, write.go insertedValues):
//   - SQLite's INSERT OR IGNORE skips a row with a NULL for a NOT NULL
//     column (or breaking a CHECK), without an error; INSERT … ON
//     CONFLICT DO NOTHING fails; INSERT OR REPLACE stores the column's
//     DEFAULT, and fails without one;
//   - PostgreSQL's ON CONFLICT DO NOTHING fails;
//   - MySQL (MariaDB, strict mode): REPLACE fails; INSERT IGNORE stores
//     the implicit default 0 (not the column's DEFAULT) and clips a value
//     out of range to the nearest bound, its ON DUPLICATE KEY UPDATE too;
//     BIGINT arithmetic that overflows and a broken CHECK still fail;
//     UPDATE IGNORE clips and stores implicit defaults as well, fails on
//     BIGINT overflow, but leaves a row that would break a CHECK, or
//     whose new key duplicates another's, as it was, without an error.
func TestIgnoreWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	sqlite := []ignoreCase{
		{"INSERT OR IGNORE INTO t (id, c) VALUES (1, NULL)", false, ""},
		{"INSERT OR IGNORE INTO t (id, c) VALUES (1, max(NULL, 100))", false, ""},
		{"INSERT OR IGNORE INTO t (id, c, e) VALUES (1, 1, -1)", false, ""},
		{"INSERT OR IGNORE INTO t (id, c) VALUES (1, 1), (2, NULL), (3, 3)", false, "1:1 3:3"},
		{"INSERT INTO t (id, c) VALUES (1, NULL) ON CONFLICT DO NOTHING", true, ""},
		{"INSERT INTO t (id, c) VALUES (1, NULL) ON CONFLICT (id) DO NOTHING", true, ""},
		{"INSERT OR REPLACE INTO t (id, c) VALUES (1, NULL)", true, ""},
		{"INSERT OR REPLACE INTO t (id, c, d) VALUES (1, 1, NULL)", false, "1:1"}, // d: its DEFAULT 7
		{"REPLACE INTO t (id, c, d) VALUES (1, 1, NULL)", false, "1:1"},           // d: its DEFAULT 7
	}
	postgres := []ignoreCase{
		{"INSERT INTO t (id, c) VALUES (1, NULL) ON CONFLICT DO NOTHING", true, ""},
		{"INSERT INTO t (id, c) VALUES (1, GREATEST(NULL, 100)) ON CONFLICT DO NOTHING", false, "1:100"},
	}
	mysql := []ignoreCase{
		{"REPLACE INTO t (id, c) VALUES (1, NULL)", true, ""},
		{"INSERT IGNORE INTO t (id, c, d) VALUES (1, 1, NULL)", false, "1:1/0"},
		{"INSERT IGNORE INTO t (id, c) VALUES (1, 2147483648)", false, "1:2147483647"},
		{"INSERT IGNORE INTO t (id, c) VALUES (1, -2147483649)", false, "1:-2147483648"},
		{"INSERT IGNORE INTO t (id, c, u) VALUES (1, 1, -5)", false, "1:1/u0"},
		{"INSERT INTO t (id, c) VALUES (1, 2147483648)", true, ""},
		{"INSERT IGNORE INTO t (id, c, e) VALUES (1, 1, -1)", true, ""},
		{"INSERT IGNORE INTO t (id, c, b) VALUES (1, 1, 9223372036854775807 + 1)", true, ""},
		{"INSERT IGNORE INTO t (id, c) VALUES (1, 5), (1, 6) ON DUPLICATE KEY UPDATE c = c - 2147483647 - 100", false, "1:-2147483648"},
		{"INSERT IGNORE INTO t (id, c) VALUES (1, 5), (1, 6) ON DUPLICATE KEY UPDATE c = NULL", false, "1:0"},
		// UPDATE IGNORE (dbmodel/updateignore.go), on the rows 1:5 and 2:6.
		{updateRows + "UPDATE IGNORE t SET c = NULL WHERE id = 1", false, "1:0 2:6"},
		{updateRows + "UPDATE IGNORE t SET c = 2147483648 WHERE id = 1", false, "1:2147483647 2:6"},
		{updateRows + "UPDATE IGNORE t SET c = c - 2147483647 - 100 WHERE id = 1", false, "1:-2147483648 2:6"},
		{updateRows + "UPDATE IGNORE t SET u = -5 WHERE id = 1", false, "1:5/u0 2:6"},
		{updateRows + "UPDATE IGNORE t SET e = -1 WHERE id = 1", false, "1:5 2:6"},
		{updateRows + "UPDATE IGNORE t SET e = 5 - c", false, "1:5/e0 2:6"},
		{updateRows + "UPDATE IGNORE t SET b = 9223372036854775807 + c WHERE id = 1", true, "1:5 2:6"},
		{updateRows + "UPDATE IGNORE t SET id = 2 WHERE id = 1", false, "1:5 2:6"},
		{updateRows + "UPDATE IGNORE t SET id = id + 1 ORDER BY id", false, "1:5 3:6"},
		{updateRows + "UPDATE t SET id = 2 WHERE id = 1", true, "1:5 2:6"},
		{updateRows + "UPDATE t SET c = NULL WHERE id = 1", true, "1:5 2:6"},
	}
	runIgnoreCases(t, groundtruth.SQLite, "CREATE TABLE t (id INTEGER PRIMARY KEY, c INTEGER NOT NULL, d INTEGER NOT NULL DEFAULT 7, e INTEGER CHECK (e >= 0), u INTEGER, b INTEGER)", sqlite)
	runIgnoreCases(t, groundtruth.Postgres, "CREATE TABLE t (id BIGINT PRIMARY KEY, c BIGINT NOT NULL, d BIGINT NOT NULL DEFAULT 7, e BIGINT CHECK (e >= 0), u BIGINT, b BIGINT)", postgres)
	runIgnoreCases(t, groundtruth.MySQL, "CREATE TABLE t (id BIGINT PRIMARY KEY, c INT NOT NULL, d INT NOT NULL DEFAULT 7, e BIGINT CHECK (e >= 0), u INT UNSIGNED, b BIGINT)", mysql)
}

// updateRows is the setup of an UPDATE case: the rows 1:5 and 2:6.
const updateRows = "INSERT INTO t (id, c) VALUES (1, 5), (2, 6)\n"

func runIgnoreCases(t *testing.T, d groundtruth.Dialect, ddl string, cases []ignoreCase) {
	t.Helper()
	ctx := context.Background()
	db, _, err := engines.get(t, d).NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range cases {
		if err := groundtruth.ExecAll(ctx, db, "DROP TABLE IF EXISTS t", ddl); err != nil {
			t.Fatal(err)
		}
		stmts := strings.Split(c.stmt, "\n")
		if err := groundtruth.ExecAll(ctx, db, stmts[:len(stmts)-1]...); err != nil {
			t.Fatal(err)
		}
		_, err := db.ExecContext(ctx, stmts[len(stmts)-1])
		if (err != nil) != c.fail {
			t.Errorf("%s: %s: error %v, want failure %v", d, c.stmt, err, c.fail)
			continue
		}
		if got, err := ignoreRows(ctx, db); err != nil {
			t.Fatal(err)
		} else if got != c.want {
			t.Errorf("%s: %s: rows %q, want %q", d, c.stmt, got, c.want)
		}
	}
}

// ignoreRows prints t's rows as "id:c", with "/d" where d is not the
// DEFAULT 7, "/uN" where u is set and "/eN" where e is.
func ignoreRows(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, c, d, u, e FROM t ORDER BY id")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	out := ""
	for rows.Next() {
		var id, c, dv int64
		var u, e sql.NullInt64
		if err := rows.Scan(&id, &c, &dv, &u, &e); err != nil {
			return "", err
		}
		if out != "" {
			out += " "
		}
		out += fmt.Sprintf("%d:%d", id, c)
		if dv != 7 {
			out += fmt.Sprintf("/%d", dv)
		}
		if u.Valid {
			out += fmt.Sprintf("/u%d", u.Int64)
		}
		if e.Valid {
			out += fmt.Sprintf("/e%d", e.Int64)
		}
	}
	return out, rows.Err()
}
