package sqlparse

import (
	"errors"
	"fmt"
	"strings"
)

// Dialect selects the SQL grammar and placeholder syntax of a query.
type Dialect int

// The dialects. The zero value is MySQL.
const (
	// MySQL: "?" and ":name" placeholders, backquoted identifiers.
	MySQL Dialect = iota
	// SQLite: "?", "?NNN", ":name", "@name" and "$name" placeholders;
	// rewritten into Postgres text and parsed with the Postgres parser
	// (see sqlite.go), with SQLite's meaning for iif, ifnull, the scalar
	// max/min and INSERT OR REPLACE/IGNORE.
	SQLite
	// Postgres: "$1" placeholders, parsed with the real Postgres parser
	// (github.com/pganalyze/pg_query_go/v6).
	Postgres
)

// Dialects returns every dialect, in a fixed order.
func Dialects() []Dialect { return []Dialect{MySQL, SQLite, Postgres} }

// ErrUnsupportedDialect is wrapped by errors for dialects without a parser.
// MySQL, SQLite and Postgres all have one; it is kept for callers that
// test for it.
var ErrUnsupportedDialect = errors.New("SQL dialect not supported yet")

// String returns the dialect's lower-case name.
func (d Dialect) String() string {
	switch d {
	case MySQL:
		return "mysql"
	case SQLite:
		return "sqlite"
	case Postgres:
		return "postgres"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

// ParseDialect maps a name such as "mysql", "sqlite", "sqlite3",
// "postgres", "postgresql" or "pg" (any case) to a Dialect.
func ParseDialect(name string) (Dialect, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "mysql", "mariadb":
		return MySQL, nil
	case "sqlite", "sqlite3":
		return SQLite, nil
	case "postgres", "postgresql", "pg", "pgx":
		return Postgres, nil
	}
	return 0, fmt.Errorf("unknown SQL dialect %q (want mysql, sqlite or postgres)", name)
}
