package witness

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// Row is one row to seed: column (lower-case) → value as text; "NULL" is
// the null value.
type Row struct {
	Table  string
	Values map[string]string
}

// Literal writes v as a SQL literal: NULL, or a quoted string (both engines
// convert a quoted number to a numeric or boolean column). A fraction
// "a/b" becomes its decimal expansion.
func Literal(v string) string {
	if v == "NULL" {
		return "NULL"
	}
	if strings.Contains(v, "/") {
		if r, ok := new(big.Rat).SetString(v); ok {
			v = r.FloatString(10)
		}
	}
	switch v {
	case "true":
		v = "1"
	case "false":
		v = "0"
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// InsertSQL is the INSERT of one row.
func InsertSQL(r Row) string {
	return insertSQL(r, func(_, v string) string { return Literal(v) }, func(n string) string { return n }, r.Table)
}

// InsertSQLFor is the INSERT of one row of schema s in dialect d. SQLite
// gets numbers unquoted, except in columns s declares as text or time: a
// quoted number in a column without numeric affinity (no type, or BLOB)
// stays text, which SQLite orders after every number.
func InsertSQLFor(d sqlparse.Dialect, s *Schema, r Row) string {
	col := func(n string) string { return s.ColumnSQL(d, r.Table, n) }
	if d != sqlparse.SQLite {
		return insertSQL(r, func(_, v string) string { return Literal(v) }, col, s.TableSQL(d, r.Table))
	}
	t := s.Table(r.Table)
	return insertSQL(r, func(col, v string) string {
		if t != nil {
			// (A column without a type keeps a value as written.)
			typ := columnType(t, col)
			if c := ColumnClass(typ); typ != "" && (c == ClassText || c == ClassTime) {
				return Literal(v)
			}
		}
		return sqliteLiteral(v)
	}, col, s.TableSQL(d, r.Table))
}

// sqliteLiteral writes a number (or a fraction, or a boolean) unquoted,
// anything else as Literal does.
func sqliteLiteral(v string) string {
	switch v {
	case "true":
		return "1"
	case "false":
		return "0"
	}
	if strings.Contains(v, "/") {
		if r, ok := new(big.Rat).SetString(v); ok {
			return r.FloatString(10)
		}
	}
	if _, ok := new(big.Rat).SetString(v); ok && !strings.ContainsAny(v, "eE/") {
		return v
	}
	return Literal(v)
}

func insertSQL(r Row, lit func(col, v string) string, ident func(col string) string, table string) string {
	cols := sortedKeys(r.Values)
	vals := make([]string, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = lit(c, r.Values[c])
		names[i] = ident(c)
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(names, ", "), strings.Join(vals, ", "))
}

// bigserial is PostgreSQL's auto-incrementing column type.
var bigserial = regexp.MustCompile(`(?i)\b(BIG|SMALL)?SERIAL\b`)

// selectsDatabase is a MySQL statement that creates or selects a
// database (CREATE DATABASE, its synonym CREATE SCHEMA, USE) at the start
// of a line, with its semicolon.
var selectsDatabase = regexp.MustCompile(`(?im)^[ \t]*(?:CREATE[ \t]+(?:DATABASE|SCHEMA)\b|USE[ \t]+)[^;]*;[ \t]*\n?`)

// DDLFor is the schema's DDL as the engine of dialect d runs it: on
// MySQL/MariaDB, PostgreSQL's SERIAL types (a program with MySQL SQL
// whose schema was written for PostgreSQL) become auto-incremented
// integers, and statements that create or select a database are left
// out, so that the tables go into the database the run's program uses
// (a schema file that began CREATE DATABASE bank; USE bank; created
// them in bank, and the program, on the throwaway database, failed
// with Error 1146: an independent tester's ext cav2).
func (s *Schema) DDLFor(d sqlparse.Dialect) string {
	if d != sqlparse.MySQL {
		return s.DDL
	}
	ddl := s.DDL
	if !qualifiedTable.MatchString(ddl) {
		// (A table created as bank.accounts needs CREATE DATABASE bank.)
		ddl = selectsDatabase.ReplaceAllString(ddl, "")
	}
	return bigserial.ReplaceAllStringFunc(ddl, func(t string) string {
		if strings.HasPrefix(strings.ToUpper(t), "SMALL") {
			return "SMALLINT AUTO_INCREMENT UNIQUE"
		}
		return "BIGINT AUTO_INCREMENT UNIQUE"
	})
}

// Create creates the schema's tables on an engine of dialect d.
func Create(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema) error {
	if err := ex.Exec(ctx, s.DDLFor(d)); err != nil {
		return fmt.Errorf("creating the schema (%s): %w", s.Source, err)
	}
	return nil
}

// Reset empties every table of the schema (and restarts its sequences).
func Reset(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema) error {
	var names []string
	for _, k := range sortedKeys(s.Tables) {
		names = append(names, s.TableSQL(d, s.Tables[k].Name))
	}
	if len(names) == 0 {
		return nil
	}
	switch d {
	case sqlparse.Postgres:
		return ex.Exec(ctx, "TRUNCATE "+strings.Join(names, ", ")+" RESTART IDENTITY CASCADE")
	case sqlparse.SQLite:
		q := "PRAGMA foreign_keys = OFF;"
		for _, n := range names {
			q += " DELETE FROM " + n + ";"
		}
		if err := ex.Exec(ctx, q+" PRAGMA foreign_keys = ON"); err != nil {
			return err
		}
		// AUTOINCREMENT counters, when a table has one.
		if res, err := ex.Query(ctx, "SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'"); err == nil && len(res.Rows) > 0 {
			return ex.Exec(ctx, "DELETE FROM sqlite_sequence")
		}
		return nil
	}
	q := "SET FOREIGN_KEY_CHECKS = 0;"
	for _, n := range names {
		q += " TRUNCATE TABLE " + n + ";"
	}
	return ex.Exec(ctx, q+" SET FOREIGN_KEY_CHECKS = 1")
}

// seedingSQL are the statements around a seeded row: foreign keys not
// checked (a run lists the rows it needs, not their parents) and, on
// MySQL, a zero auto-increment value kept.
func seedingSQL(d sqlparse.Dialect) (before, after string) {
	switch d {
	case sqlparse.Postgres:
		return "SET session_replication_role = replica; ", "; SET session_replication_role = DEFAULT"
	case sqlparse.SQLite:
		return "PRAGMA foreign_keys = OFF; ", "; PRAGMA foreign_keys = ON"
	}
	return "SET FOREIGN_KEY_CHECKS = 0; SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO'); ",
		"; SET FOREIGN_KEY_CHECKS = 1; SET SESSION sql_mode = REPLACE(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO', '')"
}

// Seed inserts rows of schema s; it returns the rows the database refused
// (a CHECK, a duplicate key) with the reason. Foreign keys are not checked
// while seeding: a run lists the rows it needs, not their parents.
//
// A PostgreSQL CHECK added NOT VALID (sqlir.Constraint.NotValid) does not
// hold of the rows older than it: it is dropped while seeding and added
// NOT VALID again after, so that the seeded rows are such older rows.
func Seed(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, rows []Row) []string {
	before, after := seedingSQL(d)
	var refused []string
	drop, add := notValidChecksSQL(d, s)
	for _, q := range drop {
		if err := ex.Exec(ctx, q); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", q, err))
		}
	}
	for _, r := range rows {
		ins := InsertSQLFor(d, s, r)
		if err := ex.Exec(ctx, before+ins+after); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", ins, err))
		}
	}
	for _, q := range add {
		if err := ex.Exec(ctx, q); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", q, err))
		}
	}
	return refused
}

// notValidChecksSQL returns the statements that drop schema s's NOT VALID
// CHECKs and those that add them back NOT VALID (PostgreSQL only).
func notValidChecksSQL(d sqlparse.Dialect, s *Schema) (drop, add []string) {
	if d != sqlparse.Postgres {
		return nil, nil
	}
	for _, k := range sortedKeys(s.Tables) {
		t := s.Tables[k]
		for _, c := range t.Checks {
			if !c.NotValid {
				continue
			}
			table := s.TableSQL(d, t.Name)
			drop = append(drop, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s", table, c.Name))
			add = append(add, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s) NOT VALID", table, c.Name, c.Text))
		}
	}
	return drop, add
}

// Violations returns the rows that break c.
func Violations(ctx context.Context, ex Executor, c *Constraint) ([]map[string]string, error) {
	res, err := ex.Query(ctx, c.ViolationQuery())
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", c.Text, err)
	}
	return res.Maps(), nil
}

// Dump returns every row of a table (as SQL names it: Schema.TableSQL),
// for printing a run.
func Dump(ctx context.Context, ex Executor, table string) []map[string]string {
	res, err := ex.Query(ctx, "SELECT * FROM "+table)
	if err != nil {
		return nil
	}
	return res.Maps()
}

// FormatRows prints rows as "{a=1 b=2}".
func FormatRows(rows []map[string]string) string {
	var parts []string
	for _, r := range rows {
		keys := sortedKeys(r)
		var kv []string
		for _, k := range keys {
			kv = append(kv, k+"="+r[k])
		}
		parts = append(parts, "{"+strings.Join(kv, " ")+"}")
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
