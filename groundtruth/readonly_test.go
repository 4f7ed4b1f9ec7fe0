package groundtruth_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestReadOnlyTransactions checks on the engines what the row model's
// read-only transactions (ir.TxOp.ReadOnly) rely on: through the drivers
// the tool reads (pgx, go-sql-driver/mysql, modernc.org/sqlite),
// BeginTx with sql.TxOptions{ReadOnly: true} makes every write of the
// transaction fail on PostgreSQL (SQLSTATE 25006) and MariaDB (error
// 1792) and leaves the row as it was, while modernc.org/sqlite ignores
// the option: the write succeeds and commits. accounts starts with the
// row (1, 10); balance is read at the end.
func TestReadOnlyTransactions(t *testing.T) {
	tests := []struct {
		name      string
		dialect   groundtruth.Dialect
		readOnly  bool
		writeFail bool
		balance   int64
	}{
		{"postgres: a write in a READ ONLY transaction fails", groundtruth.Postgres, true, true, 10},
		{"postgres: a write in a read-write transaction succeeds", groundtruth.Postgres, false, false, 9},
		{"mariadb: a write in a READ ONLY transaction fails", groundtruth.MySQL, true, true, 10},
		{"mariadb: a write in a read-write transaction succeeds", groundtruth.MySQL, false, false, 9},
		{"sqlite (modernc): ReadOnly is ignored, the write succeeds", groundtruth.SQLite, true, false, 9},
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
			for _, q := range []string{"CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL)", "INSERT INTO accounts VALUES (1, 10)"} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			writeInTx(ctx, t, db, tt.readOnly, tt.writeFail)
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

// writeInTx decrements row 1 in a transaction begun with ReadOnly set
// to readOnly and commits it when the write succeeded.
func writeInTx(ctx context.Context, t *testing.T, db *sql.DB, readOnly, wantFail bool) {
	t.Helper()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: readOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = 1")
	if (err != nil) != wantFail {
		t.Fatalf("UPDATE: error %v, want failure %v", err, wantFail)
	}
	if err == nil {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}
