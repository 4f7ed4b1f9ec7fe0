package witness

import (
	"strings"
	"testing"

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
