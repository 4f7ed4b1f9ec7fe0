package groundtruth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	// The drivers of the three dialects, registered as "sqlite", "pgx" and
	// "mysql".
	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

// Engine is one throwaway database engine: a PostgreSQL or MariaDB server
// listening on a unix socket, or a directory of SQLite files.
type Engine struct {
	dialect Dialect
	driver  string
	dir     string // the engine's files (under the caller's directory)
	socket  string // postgres: the socket directory; mysql: the socket file
	server  *server
	cleanup []string // directories Start created outside dir (short socket paths)

	mu   sync.Mutex
	next int // databases handed out so far
}

// Start starts a throwaway engine of dialect d whose files live under dir,
// a directory the caller owns (and removes). The engine runs until Close.
//
// sqlite needs nothing but the directory. postgres runs initdb and postgres
// (as the postgres system user when the caller is root) with fsync off on a
// unix socket; mysql runs mariadb-install-db and mariadbd the same way,
// without networking. A missing binary is reported as an error wrapping
// ErrMissingBinary.
func Start(ctx context.Context, d Dialect, dir string) (*Engine, error) {
	driver, err := d.driverName()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("groundtruth: %s engine directory: %w", d, err)
	}
	e := &Engine{dialect: d, driver: driver, dir: filepath.Join(abs, string(d))}
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, fmt.Errorf("groundtruth: %s engine directory: %w", d, err)
	}
	switch d {
	case SQLite:
		return e, nil
	case Postgres:
		err = e.startPostgres(ctx)
	case MySQL:
		err = e.startMariaDB(ctx)
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Dialect is the engine's dialect.
func (e *Engine) Dialect() Dialect { return e.dialect }

// DriverName is the database/sql driver name to open the engine's
// databases with.
func (e *Engine) DriverName() string { return e.driver }

// DSN is the data source name of the engine's database named database.
func (e *Engine) DSN(database string) string {
	switch e.dialect {
	case SQLite:
		// Foreign keys on, as applications usually ask; a busy timeout so
		// that the pool's connections wait for each other; no fsync (a
		// throwaway database).
		return "file:" + filepath.Join(e.dir, database+".db") +
			"?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=synchronous(OFF)&_pragma=journal_mode(MEMORY)"
	case Postgres:
		return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", e.socket, pgPort, database)
	case MySQL:
		return fmt.Sprintf("root@unix(%s)/%s", e.socket, database)
	}
	return ""
}

// NewDatabase creates a fresh empty database and opens it; the caller
// closes the *sql.DB. The name is unique within the engine.
func (e *Engine) NewDatabase(ctx context.Context) (*sql.DB, string, error) {
	e.mu.Lock()
	e.next++
	name := fmt.Sprintf("gt%d", e.next)
	e.mu.Unlock()
	if e.dialect != SQLite {
		admin, err := sql.Open(e.driver, e.DSN(e.adminDatabase()))
		if err != nil {
			return nil, "", fmt.Errorf("groundtruth: %s: %w", e.dialect, err)
		}
		_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
		admin.Close()
		if err != nil {
			return nil, "", fmt.Errorf("groundtruth: %s: create database %s: %w", e.dialect, name, err)
		}
	}
	db, err := sql.Open(e.driver, e.DSN(name))
	if err != nil {
		return nil, "", fmt.Errorf("groundtruth: %s: open %s: %w", e.dialect, name, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, "", fmt.Errorf("groundtruth: %s: open %s: %w", e.dialect, name, err)
	}
	return db, name, nil
}

// adminDatabase is a database that always exists, to run CREATE DATABASE in.
func (e *Engine) adminDatabase() string {
	if e.dialect == Postgres {
		return "postgres"
	}
	return ""
}

// Close stops the engine's server (its whole process group) and removes
// the socket directories Start made outside the caller's directory; it
// removes nothing under the caller's directory.
func (e *Engine) Close() error {
	var errs []error
	if e.server != nil {
		errs = append(errs, e.server.stop())
		e.server = nil
	}
	for _, d := range e.cleanup {
		errs = append(errs, os.RemoveAll(d))
	}
	e.cleanup = nil
	return errors.Join(errs...)
}
