package groundtruth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrMissingBinary is wrapped by Start's error when an engine's programs
// are not installed.
var ErrMissingBinary = errors.New("engine binary not found (run `make deps` to install postgresql and mariadb-server)")

// findBinary finds name in PATH or in the given directory patterns
// (Debian installs PostgreSQL under /usr/lib/postgresql/<version>/bin).
func findBinary(name string, patterns ...string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, pat := range patterns {
		dirs, _ := filepath.Glob(pat)
		// The newest version last in lexical order; prefer it.
		for i := len(dirs) - 1; i >= 0; i-- {
			p := filepath.Join(dirs[i], name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s: %w", name, ErrMissingBinary)
}

// account is the system user a server runs as: the current user, or, when
// that is root, the named service account (postgres refuses to run as
// root).
type account struct {
	uid, gid int
	cred     *syscall.Credential // nil: run as the current user
}

// serviceAccount returns the account to run a server as.
func serviceAccount(name string) (account, error) {
	if os.Geteuid() != 0 {
		return account{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return account{}, fmt.Errorf("system user %s (the server cannot run as root): %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return account{uid: uid, gid: gid, cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}, nil
}

// prepareDir makes dir owned by a and every ancestor of dir traversable by
// it (adding only the others' execute bit where an ancestor lacks it).
func (a account) prepareDir(dir string) error {
	if a.cred == nil {
		return nil
	}
	if err := os.Chown(dir, a.uid, a.gid); err != nil {
		return err
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if st.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(p, st.Mode().Perm()|0o001); err != nil {
				return err
			}
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// command makes an exec.Cmd running as a in its own process group, killed
// when the test process dies.
func (a account) command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: a.cred}
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	return cmd
}

// run runs a setup program to completion, its output in the error.
func (a account) run(ctx context.Context, bin string, args ...string) error {
	cmd := a.command(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", filepath.Base(bin), strings.Join(args, " "), err, tail(out.String()))
	}
	return nil
}

// server is a running database server process.
type server struct {
	cmd  *exec.Cmd
	log  string // its log file
	quit syscall.Signal
	done chan struct{}
	err  error // its exit status, once done is closed
}

// startServer starts a server writing its output to logFile; stop sends
// it quit, a signal on which it exits without waiting for its clients.
func (a account) startServer(bin, logFile string, quit syscall.Signal, args ...string) (*server, error) {
	f, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Not CommandContext: the server outlives Start's context.
	cmd := a.command(context.Background(), bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", filepath.Base(bin), err)
	}
	s := &server{cmd: cmd, log: logFile, quit: quit, done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	return s, nil
}

// exited reports whether the server has exited, with its log.
func (s *server) exited() error {
	select {
	case <-s.done:
		b, _ := os.ReadFile(s.log)
		return fmt.Errorf("server exited (%v):\n%s", s.err, tail(string(b)))
	default:
		return nil
	}
}

// stop terminates the server's process group, killing it if it does not
// exit within a few seconds. The signal is the server's quit: PostgreSQL's
// SIGTERM (a smart shutdown) waits for every client to disconnect, which
// cost each replay ten seconds while its driver still held a connection.
func (s *server) stop() error {
	pgid := s.cmd.Process.Pid
	select {
	case <-s.done:
	default:
		_ = syscall.Kill(-pgid, s.quit)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-s.done
		}
	}
	// Helpers the server forked (postgres backends) share its group.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return nil
}

// waitReady polls ready until it succeeds, the server exits or ctx ends.
func (s *server) waitReady(ctx context.Context, ready func(context.Context) error) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := ready(ctx)
		if err == nil {
			return nil
		}
		if e := s.exited(); e != nil {
			return e
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(s.log)
			return fmt.Errorf("server not ready after 60s: %w\n%s", err, tail(string(b)))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// socketDir returns a directory for a unix socket: sub under base when the
// socket's path fits the kernel's limit (108 bytes), else a new short
// directory under the system's temporary directory, which Close removes.
func (e *Engine) socketDir(base, sub string, a account) (string, error) {
	dir := filepath.Join(base, sub)
	if len(dir)+len("/.s.PGSQL.5432.lock") < 100 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		return dir, a.prepareDir(dir)
	}
	dir, err := os.MkdirTemp("", "gt")
	if err != nil {
		return "", err
	}
	e.cleanup = append(e.cleanup, dir)
	return dir, a.prepareDir(dir)
}

// tail is the end of a long log.
func tail(s string) string {
	const n = 2000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
