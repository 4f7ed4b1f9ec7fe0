package witness

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// TestDDLForLeavesOutDatabaseSelection checks that MySQL's DDL loses the
// statements that create or select a database, and nothing else; other
// dialects keep their DDL as written (PostgreSQL's CREATE SCHEMA makes
// the schema qualified names need).
func TestDDLForLeavesOutDatabaseSelection(t *testing.T) {
	ddl := "CREATE DATABASE IF NOT EXISTS bank;\nuse `bank`;\n  CREATE SCHEMA audit;\nCREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL);\nCREATE TABLE users (id BIGINT PRIMARY KEY, used_by BIGINT);\n"
	s := &Schema{DDL: ddl}
	got := s.DDLFor(sqlparse.MySQL)
	want := "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL);\nCREATE TABLE users (id BIGINT PRIMARY KEY, used_by BIGINT);\n"
	if got != want {
		t.Errorf("MySQL DDL:\n%s\nwant:\n%s", got, want)
	}
	if got := s.DDLFor(sqlparse.Postgres); !strings.Contains(got, "CREATE SCHEMA audit;") {
		t.Errorf("PostgreSQL DDL lost its CREATE SCHEMA:\n%s", got)
	}
}

// TestQualifiedTables checks that replay names a table the DDL creates
// under a schema name as created, on PostgreSQL, and that a MySQL DDL
// whose tables live in a database it creates keeps CREATE DATABASE.
func TestQualifiedTables(t *testing.T) {
	ddl := "CREATE SCHEMA bank;\nCREATE TABLE IF NOT EXISTS bank.\"accounts\" (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL);\nCREATE TABLE users (id BIGINT PRIMARY KEY);\n"
	tables := map[string]*sqlir.Table{"accounts": {Name: "accounts"}, "users": {Name: "users"}}
	s := &Schema{DDL: ddl, Tables: tables, qualified: qualifiedTables(ddl, tables)}
	for _, tc := range []struct {
		d     sqlparse.Dialect
		table string
		want  string
	}{
		{sqlparse.Postgres, "accounts", `"bank"."accounts"`},
		{sqlparse.Postgres, "ACCOUNTS", `"bank"."accounts"`},
		{sqlparse.Postgres, "users", `"users"`},
		{sqlparse.MySQL, "accounts", "`accounts`"},
	} {
		if got := s.TableSQL(tc.d, tc.table); got != tc.want {
			t.Errorf("TableSQL(%s, %s) = %s, want %s", tc.d, tc.table, got, tc.want)
		}
	}
	my := &Schema{DDL: "CREATE DATABASE bank;\nCREATE TABLE bank.accounts (id BIGINT PRIMARY KEY);\n"}
	if got := my.DDLFor(sqlparse.MySQL); !strings.Contains(got, "CREATE DATABASE bank;") {
		t.Errorf("MySQL DDL of a qualified table lost its CREATE DATABASE:\n%s", got)
	}
}
