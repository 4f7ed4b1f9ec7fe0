package witness

import (
	"context"
	"fmt"
	"math/big"
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
	cols := sortedKeys(r.Values)
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = Literal(r.Values[c])
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", r.Table, strings.Join(cols, ", "), strings.Join(vals, ", "))
}

// Create creates the schema's tables.
func Create(ctx context.Context, ex Executor, s *Schema) error {
	if err := ex.Exec(ctx, s.DDL); err != nil {
		return fmt.Errorf("creating the schema (%s): %w", s.Source, err)
	}
	return nil
}

// Reset empties every table of the schema (and restarts its sequences).
func Reset(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema) error {
	var names []string
	for _, k := range sortedKeys(s.Tables) {
		names = append(names, s.Tables[k].Name)
	}
	if len(names) == 0 {
		return nil
	}
	if d == sqlparse.Postgres {
		return ex.Exec(ctx, "TRUNCATE "+strings.Join(names, ", ")+" RESTART IDENTITY CASCADE")
	}
	q := "SET FOREIGN_KEY_CHECKS = 0;"
	for _, n := range names {
		q += " TRUNCATE TABLE " + n + ";"
	}
	return ex.Exec(ctx, q+" SET FOREIGN_KEY_CHECKS = 1")
}

// Seed inserts rows; it returns the rows the database refused (a CHECK, a
// duplicate key) with the reason. Foreign keys are not checked while
// seeding: a run lists the rows it needs, not their parents.
func Seed(ctx context.Context, ex Executor, d sqlparse.Dialect, rows []Row) []string {
	noFK := "SET FOREIGN_KEY_CHECKS = 0; SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO'); "
	if d == sqlparse.Postgres {
		noFK = "SET session_replication_role = replica; "
	}
	restore := "; SET FOREIGN_KEY_CHECKS = 1; SET SESSION sql_mode = REPLACE(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO', '')"
	if d == sqlparse.Postgres {
		restore = "; SET session_replication_role = DEFAULT"
	}
	var refused []string
	for _, r := range rows {
		if err := ex.Exec(ctx, noFK+InsertSQL(r)+restore); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", InsertSQL(r), err))
		}
	}
	return refused
}

// Violations returns the rows that break c.
func Violations(ctx context.Context, ex Executor, c *Constraint) ([]map[string]string, error) {
	res, err := ex.Query(ctx, c.ViolationQuery())
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", c.Text, err)
	}
	return res.Maps(), nil
}

// Dump returns every row of the constraint's table, for printing a run.
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
