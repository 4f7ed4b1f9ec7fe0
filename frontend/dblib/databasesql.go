package dblib

import "github.com/dbverify/dbverify/sqlparse"

// databaseSQL describes the standard library's database/sql: the shape
// every other library follows (Exec/Query/QueryRow/Prepare on a pool, a
// connection or a transaction; Begin, Commit, Rollback; Scan).
func databaseSQL() *Library {
	const p = "database/sql"
	return &Library{
		Name:     "database/sql",
		Packages: []string{p},
		Handles: map[string]Kind{
			p + ".DB": DB, p + ".Conn": DB, p + ".Tx": Tx, p + ".Stmt": Stmt,
			p + ".Row": Row, p + ".Rows": Rows, p + ".Result": Result,
		},
		Conns: []string{p + ".Conn"},
		Methods: merge(
			on([]string{"*" + p + ".DB", "*" + p + ".Tx"}, map[string]Op{
				"Exec": Exec, "Query": Query, "QueryRow": QueryRow, "Prepare": Prepare,
			}),
			on([]string{"*" + p + ".DB", "*" + p + ".Conn", "*" + p + ".Tx"}, map[string]Op{
				"ExecContext": Exec, "QueryContext": Query, "QueryRowContext": QueryRow, "PrepareContext": Prepare,
			}),
			on([]string{"*" + p + ".DB"}, map[string]Op{"Begin": Begin, "Conn": Conn}),
			on([]string{"*" + p + ".DB", "*" + p + ".Conn"}, map[string]Op{"BeginTx": Begin}),
			on([]string{"*" + p + ".Tx"}, map[string]Op{
				"Commit": Commit, "Rollback": Rollback, "Stmt": BindStmt, "StmtContext": BindStmt,
			}),
			on([]string{"*" + p + ".Stmt"}, map[string]Op{
				"Exec": Exec, "ExecContext": Exec, "Query": Query, "QueryContext": Query,
				"QueryRow": QueryRow, "QueryRowContext": QueryRow,
			}),
			on([]string{"*" + p + ".Row", "*" + p + ".Rows"}, map[string]Op{"Scan": Scan}),
			on([]string{"*" + p + ".Rows"}, map[string]Op{"Next": Next, "NextResultSet": NextResultSet}),
			on([]string{p + ".Result"}, map[string]Op{"RowsAffected": RowsAffected}),
		),
		Drivers: map[string]sqlparse.Dialect{
			"github.com/lib/pq":              sqlparse.Postgres,
			"github.com/go-sql-driver/mysql": sqlparse.MySQL,
			"modernc.org/sqlite":             sqlparse.SQLite,
			"github.com/mattn/go-sqlite3":    sqlparse.SQLite,
		},
		DriverNames: map[string]sqlparse.Dialect{
			"sqlite": sqlparse.SQLite, "sqlite3": sqlparse.SQLite,
			"postgres": sqlparse.Postgres, "pgx": sqlparse.Postgres, "pgx/v5": sqlparse.Postgres,
			"mysql": sqlparse.MySQL,
		},
		Openers: []string{p + ".Open"},
	}
}
