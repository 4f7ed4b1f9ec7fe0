package frontend

import (
	"testing"

	"github.com/dbverify/dbverify/sqlparse"
)

// TestAdvisoryLockSQL: the statements that only take a transaction-scoped
// advisory lock are read as a locking read of the lock's row; the
// session-level and try forms, other SQL and other dialects are not.
func TestAdvisoryLockSQL(t *testing.T) {
	tests := []struct {
		dialect sqlparse.Dialect
		text    string
		want    string // "" when not an advisory lock
	}{
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock($1)", "SELECT 1 FROM pg_advisory_xact_lock WHERE id = ($1) FOR UPDATE"},
		{sqlparse.Postgres, "  select pg_catalog.pg_advisory_xact_lock( $1 ) ;", "SELECT 1 FROM pg_advisory_xact_lock WHERE id = ($1) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock_shared($1)", "SELECT 1 FROM pg_advisory_xact_lock WHERE id = ($1) FOR SHARE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(42, $1)", "SELECT 1 FROM pg_advisory_xact_lock2 WHERE id = (42) AND id2 = ($1) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(abs($1), $2::int)", "SELECT 1 FROM pg_advisory_xact_lock2 WHERE id = (abs($1)) AND id2 = ($2::int) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(hashtext($1))", "SELECT 1 FROM pg_advisory_xact_lock_hashtext WHERE id = ($1) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock_shared(pg_catalog.HashText( $1 ))", "SELECT 1 FROM pg_advisory_xact_lock_hashtext WHERE id = ($1) FOR SHARE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", "SELECT 1 FROM pg_advisory_xact_lock_hashtextextended WHERE id = ($1) AND id2 = (7) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(hashtext($1) + 1)", "SELECT 1 FROM pg_advisory_xact_lock WHERE id = (hashtext($1) + 1) FOR UPDATE"},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock(1, 2, 3)", ""},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock()", ""},
		{sqlparse.Postgres, "SELECT pg_advisory_lock($1)", ""},
		{sqlparse.Postgres, "SELECT pg_try_advisory_xact_lock($1)", ""},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock($1), balance FROM accounts", ""},
		{sqlparse.Postgres, "SELECT pg_advisory_xact_lock($1) + abs($2)", ""},
		{sqlparse.MySQL, "SELECT pg_advisory_xact_lock(?)", ""},
	}
	for _, tt := range tests {
		got, ok := advisoryLockSQL(tt.dialect, tt.text)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("advisoryLockSQL(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
		}
	}
}
