package frontend

import (
	"testing"

	"github.com/dbverify/dbverify/sqlparse"
)

// TestUntypedArith checks which PostgreSQL statements are read as never
// preparable (the shapes groundtruth TestPostgresUntypedParams runs on
// PostgreSQL): a cast or another use of a parameter types it, and the
// parser's dropping of casts must not hide them.
func TestUntypedArith(t *testing.T) {
	for _, tt := range []struct {
		sql  string
		want string // "" : runs
	}{
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3`, "$1 + $2"},
		{`UPDATE accounts SET balance = balance - $1 * $2 WHERE id = $3`, "$1 * $2"},
		{`UPDATE accounts SET balance = balance - $1 / $2 WHERE id = $3`, "$1 / $2"},
		{`UPDATE accounts SET balance = balance - -$1 WHERE id = $2`, "-$1"},
		{`UPDATE accounts SET balance = balance - ($1::bigint + $2) WHERE id = $3`, ""},
		{`UPDATE accounts SET balance = balance - ($1 + $2::bigint) WHERE id = $3`, ""},
		{`UPDATE accounts SET balance = balance - (CAST($1 AS bigint) + $2) WHERE id = $3`, ""},
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 AND balance >= $1`, ""},
		{`UPDATE accounts SET balance = balance - ($1 + 1) WHERE id = $2`, ""},
		{`UPDATE accounts SET balance = balance - ($1 + $2) WHERE id = $3 RETURNING balance + $1`, ""},
		{`UPDATE accounts SET balance = balance - ($1 % $2) WHERE id = $3`, ""},
		{`UPDATE accounts SET balance = balance - $10 WHERE id = $1`, ""},
	} {
		stmt, err := sqlparse.Parse(sqlparse.Postgres, tt.sql)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		got, _ := untypedArith(stmt, tt.sql, 10)
		if got != tt.want {
			t.Errorf("%s: untyped operator %q, want %q", tt.sql, got, tt.want)
		}
	}
}
