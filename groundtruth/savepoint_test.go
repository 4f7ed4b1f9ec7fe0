package groundtruth_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
)

// savepointStep is one statement of a savepoint scenario, on session A
// or B, and whether it must fail.
type savepointStep struct {
	session byte
	sql     string
	fails   bool
}

// TestSavepointSemantics checks on the engines what the row model's
// savepoints (dbmodel/savepoint.go) rely on: which writes ROLLBACK TO
// undoes, which row locks it releases (session B's write with a short
// lock timeout succeeds where the lock is gone), what an error inside a
// savepoint does on PostgreSQL, and how a savepoint name is reused.
// accounts starts with the row (1, 10); balance is read at the end.
func TestSavepointSemantics(t *testing.T) {
	tests := []struct {
		name    string
		dialect groundtruth.Dialect
		steps   []savepointStep
		balance int64
	}{
		{"postgres: ROLLBACK TO releases a row lock taken after the savepoint", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "SAVEPOINT s", false},
			{'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'A', "ROLLBACK TO SAVEPOINT s", false},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", false},
			{'A', "COMMIT", false},
		}, 5},
		{"postgres: ROLLBACK TO keeps a row lock taken before the savepoint", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = balance + 1 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'A', "ROLLBACK TO SAVEPOINT s", false},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", true},
			{'A', "COMMIT", false},
		}, 11},
		{"postgres: an error inside a savepoint releases its locks at once", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "SAVEPOINT s", false},
			{'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'A', "SELECT 1/0", true},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", false},
			{'A', "SELECT 1", true},
			{'A', "ROLLBACK TO SAVEPOINT s", false}, {'A', "SELECT 1", false},
			{'A', "COMMIT", false},
		}, 5},
		{"postgres: ROLLBACK TO after an error keeps the writes before the savepoint", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = 100 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = 50 WHERE id = 1", false},
			{'A', "SELECT 1/0", true}, {'A', "ROLLBACK TO SAVEPOINT s", false},
			{'A', "COMMIT", false},
		}, 100},
		{"postgres: RELEASE of an unknown savepoint aborts the transaction", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = 100 WHERE id = 1", false},
			{'A', "RELEASE SAVEPOINT s", true}, {'A', "SELECT 1", true},
			{'A', "COMMIT", false}, // answered ROLLBACK
		}, 10},
		{"postgres: a savepoint name stacks; RELEASE uncovers the older one", groundtruth.Postgres, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = 1 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = 2 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = 3 WHERE id = 1", false},
			{'A', "RELEASE SAVEPOINT s", false}, {'A', "ROLLBACK TO SAVEPOINT s", false},
			{'A', "COMMIT", false},
		}, 1},
		{"postgres: SAVEPOINT outside a transaction fails", groundtruth.Postgres, []savepointStep{
			{'A', "SAVEPOINT s", true},
		}, 10},
		{"mariadb: an updated row's lock makes another session's update wait", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "SAVEPOINT s", false},
			{'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", true},
			{'A', "COMMIT", false},
		}, 9},
		{"mariadb: ROLLBACK TO releases the lock of a row updated after the savepoint", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "SAVEPOINT s", false},
			{'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'A', "ROLLBACK TO SAVEPOINT s", false},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", false},
			{'A', "COMMIT", false},
		}, 5},
		{"mariadb: ROLLBACK TO keeps a row lock taken before the savepoint", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = balance + 1 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = balance - 1 WHERE id = 1", false},
			{'A', "ROLLBACK TO SAVEPOINT s", false},
			{'B', "UPDATE accounts SET balance = balance - 5 WHERE id = 1", true},
			{'A', "COMMIT", false},
		}, 11},
		{"mariadb: ROLLBACK TO releases the lock of an inserted row", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "SAVEPOINT s", false},
			{'A', "INSERT INTO accounts (id, balance) VALUES (2, 1)", false},
			{'A', "ROLLBACK TO SAVEPOINT s", false},
			{'B', "INSERT INTO accounts (id, balance) VALUES (2, 7)", false},
			{'A', "COMMIT", false},
		}, 10},
		{"mariadb: an unknown savepoint fails without ending the transaction", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = 100 WHERE id = 1", false},
			{'A', "ROLLBACK TO SAVEPOINT s", true}, {'A', "RELEASE SAVEPOINT s", true},
			{'A', "COMMIT", false},
		}, 100},
		{"mariadb: a savepoint name is replaced, not stacked", groundtruth.MySQL, []savepointStep{
			{'A', "BEGIN", false}, {'A', "UPDATE accounts SET balance = 1 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = 2 WHERE id = 1", false},
			{'A', "SAVEPOINT s", false}, {'A', "UPDATE accounts SET balance = 3 WHERE id = 1", false},
			{'A', "RELEASE SAVEPOINT s", false}, {'A', "ROLLBACK TO SAVEPOINT s", true},
			{'A', "COMMIT", false},
		}, 3},
		{"mariadb: SAVEPOINT in autocommit succeeds and is gone at once", groundtruth.MySQL, []savepointStep{
			{'A', "SAVEPOINT s", false}, {'A', "ROLLBACK TO SAVEPOINT s", true},
		}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			db, _, err := engines.get(t, tt.dialect).NewDatabase(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			runSavepointSteps(ctx, t, db, tt.dialect, tt.steps)
			var bal int64
			if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = 1").Scan(&bal); err != nil {
				t.Fatal(err)
			}
			if bal != tt.balance {
				t.Errorf("balance %d, want %d", bal, tt.balance)
			}
		})
	}
}

// runSavepointSteps creates accounts with the row (1, 10) and runs steps
// on two sessions, B with a lock timeout of a second.
func runSavepointSteps(ctx context.Context, t *testing.T, db *sql.DB, d groundtruth.Dialect, steps []savepointStep) {
	t.Helper()
	for _, q := range []string{"CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL)", "INSERT INTO accounts VALUES (1, 10)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	sessions := map[byte]*sql.Conn{}
	for _, s := range []byte{'A', 'B'} {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		sessions[s] = c
	}
	timeout := "SET lock_timeout = '1s'"
	if d == groundtruth.MySQL {
		timeout = "SET SESSION innodb_lock_wait_timeout = 1"
	}
	if _, err := sessions['B'].ExecContext(ctx, timeout); err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		_, err := sessions[st.session].ExecContext(ctx, st.sql)
		if (err != nil) != st.fails {
			t.Fatalf("step %d, session %c, %s: error %v, want failure %v", i+1, st.session, st.sql, err, st.fails)
		}
	}
}
