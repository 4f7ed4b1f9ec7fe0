package sqlparse

import (
	"testing"

	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestSQLiteKeepsOldValuesInSET(t *testing.T) {
	st, err := Parse(SQLite, "UPDATE t SET a = a + 1, b = a")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sqltest.Describe(st), "UPDATE t SET a = a + 1, b = a"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestDialects(t *testing.T) {
	for name, want := range map[string]Dialect{"mysql": MySQL, "MariaDB": MySQL, "sqlite3": SQLite, "postgresql": Postgres, "pg": Postgres} {
		d, err := ParseDialect(name)
		if err != nil || d != want {
			t.Errorf("ParseDialect(%q) = %v, %v; want %v", name, d, err, want)
		}
	}
	if _, err := ParseDialect("oracle"); err == nil {
		t.Error("ParseDialect(oracle) succeeded")
	}
	if MySQL.String() != "mysql" || Postgres.String() != "postgres" {
		t.Error("Dialect.String")
	}
	if st, err := Parse(Postgres, "SELECT 1"); err != nil || sqltest.Describe(st) != "SELECT 1 FROM " {
		t.Errorf("Parse(Postgres) = %v, %v", st, err)
	}
	if _, err := Parse(Dialect(42), "SELECT 1"); err == nil {
		t.Error("unknown dialect accepted")
	}
}
