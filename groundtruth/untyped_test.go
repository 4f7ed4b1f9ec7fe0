package groundtruth_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestPostgresUntypedParams runs, through pgx's database/sql driver in its
// default exec mode (the server prepares the statement), the shapes the
// front end models as failing at every call (frontend untyped.go: an
// operator + - * / or unary - whose operands are bare parameters written
// once) and the neighbouring shapes it leaves running: a parameter typed
// by a cast or by another use, or an operand that is not a parameter.
func TestPostgresUntypedParams(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	ctx := context.Background()
	db, _, err := engines.get(t, groundtruth.Postgres).NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO accounts VALUES (1, 100)`); err != nil {
		t.Fatal(err)
	}
	three := []any{int64(1), int64(2), int64(1)}
	for _, c := range []struct {
		sql   string
		args  []any
		fails bool
	}{
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3`, three, true},
		{`UPDATE accounts SET balance = $1 + $2 WHERE id = $3`, three, true},
		{`UPDATE accounts SET balance = balance - $1 * $2 WHERE id = $3`, three, true},
		{`UPDATE accounts SET balance = balance - ($1 - $2) WHERE id = $3`, three, true},
		{`UPDATE accounts SET balance = balance - $1 / $2 WHERE id = $3`, three, true},
		{`UPDATE accounts SET balance = balance - -$1 WHERE id = $2`, []any{int64(1), int64(1)}, true},
		{`INSERT INTO accounts (id, balance) VALUES ($1, $2 + $3)`, []any{int64(5), int64(2), int64(1)}, true},
		// Typed by a cast, by another use, or by a literal operand.
		{`UPDATE accounts SET balance = balance - ($1::bigint + $2) WHERE id = $3`, three, false},
		{`UPDATE accounts SET balance = balance - ($1 + $2::bigint) WHERE id = $3`, three, false},
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 AND balance >= $1`, three, false},
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 AND balance >= $2`, three, false},
		{`UPDATE accounts SET balance = balance - ($1 + 1) WHERE id = $2`, []any{int64(1), int64(1)}, false},
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 RETURNING balance + $1`, three, false},
	} {
		_, err := db.ExecContext(ctx, c.sql, c.args...)
		switch {
		case c.fails && (err == nil || !strings.Contains(err.Error(), "42725")):
			t.Errorf("%s: %v, want 42725 (operator is not unique)", c.sql, err)
		case !c.fails && err != nil:
			t.Errorf("%s: %v, want it to run", c.sql, err)
		}
	}
}
