package groundtruth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// startMariaDB initialises a data directory under e.dir and starts mariadbd
// on a unix socket, without networking, grant tables or durability.
func (e *Engine) startMariaDB(ctx context.Context) error {
	install, err := findBinary("mariadb-install-db", "/usr/bin", "/usr/local/mysql/scripts")
	if err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	daemon, err := findBinary("mariadbd", "/usr/sbin", "/usr/libexec")
	if err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	acct, err := serviceAccount("mysql")
	if err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	if err := acct.prepareDir(e.dir); err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	data := filepath.Join(e.dir, "data")
	// A temporary directory of its own: in the shared /tmp, the temporary
	// tables of two bootstraps running at once can collide by name.
	tmp := filepath.Join(e.dir, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	if err := acct.prepareDir(tmp); err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	// The same server options for the bootstrap and the server.
	opts := []string{
		"--no-defaults", "--datadir=" + data, "--tmpdir=" + tmp,
		"--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0",
		"--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M",
		"--skip-log-bin", "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
	}
	installArgs := append(append([]string{}, opts...), "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve")
	// The template's key: the options without the directories' paths.
	var key []string
	for _, a := range installArgs {
		if !strings.HasPrefix(a, "--datadir=") && !strings.HasPrefix(a, "--tmpdir=") {
			key = append(key, a)
		}
	}
	if err := acct.initData(ctx, data, install, key, installArgs...); err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	sockDir, err := e.socketDir(e.dir, "sock", acct)
	if err != nil {
		return fmt.Errorf("groundtruth: mysql: socket directory: %w", err)
	}
	e.socket = filepath.Join(sockDir, "mysqld.sock")
	args := append(append([]string{}, opts...),
		"--socket="+e.socket, "--skip-networking", "--skip-grant-tables",
		"--pid-file="+filepath.Join(e.dir, "mariadbd.pid"),
		"--log-error="+filepath.Join(e.dir, "server.err"),
		"--innodb-use-native-aio=0", "--performance-schema=off", "--skip-name-resolve")
	e.server, err = acct.startServer(daemon, filepath.Join(e.dir, "server.log"), syscall.SIGTERM, args...)
	if err != nil {
		return fmt.Errorf("groundtruth: mysql: %w", err)
	}
	err = e.server.waitReady(ctx, func(ctx context.Context) error {
		if _, err := os.Stat(e.socket); err != nil {
			return err
		}
		return ping(ctx, e.driver, e.DSN(""))
	})
	if err != nil {
		b, _ := os.ReadFile(filepath.Join(e.dir, "server.err"))
		return fmt.Errorf("groundtruth: mysql: %w\n%s", err, tail(string(b)))
	}
	return nil
}
