package groundtruth

import (
	"fmt"
	"strconv"
)

// Dialect names an engine family. "mysql" runs on MariaDB.
type Dialect string

// The dialects an Engine can run.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
)

// Dialects lists every dialect, in a fixed order.
func Dialects() []Dialect { return []Dialect{SQLite, Postgres, MySQL} }

// Placeholder is the text of the i-th (1-based) bound argument in d:
// $i for postgres, ? otherwise.
func (d Dialect) Placeholder(i int) string {
	if d == Postgres {
		return "$" + strconv.Itoa(i)
	}
	return "?"
}

// driverName is the database/sql driver registered for d.
func (d Dialect) driverName() (string, error) {
	switch d {
	case SQLite:
		return "sqlite", nil
	case Postgres:
		return "pgx", nil
	case MySQL:
		return "mysql", nil
	}
	return "", fmt.Errorf("groundtruth: unknown dialect %q (want sqlite, postgres or mysql)", string(d))
}
