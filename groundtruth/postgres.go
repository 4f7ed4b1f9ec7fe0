package groundtruth

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// pgPort is the port number in the socket's name (no TCP listener).
const pgPort = 5432

// startPostgres initialises a cluster under e.dir and starts postgres on a
// unix socket, durability off.
func (e *Engine) startPostgres(ctx context.Context) error {
	var bins [2]string
	for i, name := range []string{"initdb", "postgres"} {
		p, err := findBinary(name, "/usr/lib/postgresql/*/bin")
		if err != nil {
			return fmt.Errorf("groundtruth: postgres: %w", err)
		}
		bins[i] = p
	}
	acct, err := serviceAccount("postgres")
	if err != nil {
		return fmt.Errorf("groundtruth: postgres: %w", err)
	}
	if err := acct.prepareDir(e.dir); err != nil {
		return fmt.Errorf("groundtruth: postgres: %w", err)
	}
	data := filepath.Join(e.dir, "data")
	initArgs := []string{"-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"}
	if err := acct.initData(ctx, data, bins[0], initArgs, append([]string{"-D", data}, initArgs...)...); err != nil {
		return fmt.Errorf("groundtruth: postgres: %w", err)
	}
	e.socket, err = e.socketDir(e.dir, "sock", acct)
	if err != nil {
		return fmt.Errorf("groundtruth: postgres: socket directory: %w", err)
	}
	// SIGQUIT is PostgreSQL's immediate shutdown: the data is thrown away.
	e.server, err = acct.startServer(bins[1], filepath.Join(e.dir, "server.log"), syscall.SIGQUIT,
		"-D", data, "-k", e.socket, "-p", fmt.Sprint(pgPort),
		"-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "shared_buffers=16MB", "-c", "max_connections=50",
		"-c", "autovacuum=off", "-c", "log_min_messages=warning")
	if err != nil {
		return fmt.Errorf("groundtruth: postgres: %w", err)
	}
	err = e.server.waitReady(ctx, func(ctx context.Context) error {
		if _, err := os.Stat(filepath.Join(e.socket, fmt.Sprintf(".s.PGSQL.%d", pgPort))); err != nil {
			return err
		}
		return ping(ctx, e.driver, e.DSN("postgres"))
	})
	if err != nil {
		return fmt.Errorf("groundtruth: postgres: %w", err)
	}
	return nil
}

// ping opens dsn and pings it once.
func ping(ctx context.Context, driver, dsn string) error {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}
