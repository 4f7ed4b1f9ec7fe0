package witness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Executor runs SQL and entry calls on one open database.
type Executor interface {
	Exec(ctx context.Context, query string) error
	Query(ctx context.Context, query string) (*QueryResult, error)
	// Call calls the entry; check is a query whose rows break the
	// constraint, run after every commit point of the call.
	// fail lists the statement runs that must fail.
	Call(ctx context.Context, pkg, entry string, inputs map[string]string, check string, fail []Failure) (*CallResult, error)
}

// QueryResult is the rows of a query as text; NULL is Null[i][j].
type QueryResult struct {
	Columns []string
	Rows    [][]string
	Nulls   [][]bool
}

// Maps returns the rows as column → value (NULL printed as NULL).
func (r *QueryResult) Maps() []map[string]string {
	var out []map[string]string
	for i, row := range r.Rows {
		m := map[string]string{}
		for j, c := range r.Columns {
			v := row[j]
			if r.Nulls != nil && r.Nulls[i][j] {
				v = "NULL"
			}
			m[strings.ToLower(c)] = v
		}
		out = append(out, m)
	}
	return out
}

// Failure makes the N-th run (from 1) of the statement Text fail (BEGIN
// and COMMIT for a transaction's begin and commit). It works on
// database/sql handles (and sqlx); pgx's own handles run unchanged.
type Failure struct {
	Text string `json:"text"`
	N    int    `json:"n"`
	// NoRows makes a query return no row instead of failing: the
	// program's Scan gets sql.ErrNoRows (a trace whose SELECT "fails" and
	// whose program then tests errors.Is(err, sql.ErrNoRows)).
	NoRows bool `json:"no_rows,omitempty"`
}

// CallResult is how an entry call ended.
type CallResult struct {
	Err   string // the entry's error, "" for nil
	Panic bool
	// Violation is the first commit point after which the check query
	// found rows, with those rows ("" when none did).
	Violation string
	// Statements are the statements the call ran, in order; Failed the
	// statements the database refused.
	Statements []Statement
	Failed     []Statement
	// Injected counts the statements whose failure the driver injected
	// (Run.Fail): sent by the entry, not run by the database.
	Injected int
}

// Statement is one statement an entry ran with its bound arguments as
// text (NULL for nil).
type Statement struct {
	SQL  string   `json:"sql"`
	Args []string `json:"args"`
}

// Driver is a running witness driver process.
type Driver struct {
	bin         string
	cmd         *exec.Cmd
	in          io.WriteCloser
	out         *bufio.Scanner
	driver, dsn string
	callTimeout time.Duration
	replies     chan reply
}

type reply struct {
	resp driverResponse
	err  error
}

type driverResponse struct {
	Err     string     `json:"err"`
	Panic   bool       `json:"panic"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	Nulls   [][]bool   `json:"nulls"`
	// Violation answers a call: see CallResult.
	Violation  string      `json:"violation"`
	Statements []Statement `json:"statements"`
	Failed     []Statement `json:"failed"`
	Injected   int         `json:"injected"`
}

// StartDriver starts the driver binary.
func StartDriver(bin string) (*Driver, error) {
	d := &Driver{bin: bin, callTimeout: 10 * time.Second}
	return d, d.start()
}

func (d *Driver) start() error {
	d.cmd = exec.Command(d.bin)
	// gin prints its debug banner on standard output unless released.
	d.cmd.Env = append(os.Environ(), "GIN_MODE=release")
	var err error
	if d.in, err = d.cmd.StdinPipe(); err != nil {
		return err
	}
	stdout, err := d.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := d.cmd.Start(); err != nil {
		return fmt.Errorf("starting the witness driver: %w", err)
	}
	d.out = bufio.NewScanner(stdout)
	d.out.Buffer(make([]byte, 1<<20), 1<<26)
	d.replies = make(chan reply)
	go func(sc *bufio.Scanner, ch chan reply) {
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if !bytes.HasPrefix(line, []byte("{")) {
				// Printed by the program before the driver took standard
				// output (a framework's banner at package init).
				continue
			}
			var r driverResponse
			err := json.Unmarshal(line, &r)
			ch <- reply{r, err}
		}
		close(ch)
	}(d.out, d.replies)
	return nil
}

// Close stops the driver.
func (d *Driver) Close() error { return StopProcess(d.in, d.cmd) }

// StopProcess closes a driver process's standard input, which tells it to
// exit, and waits for it; a process still running after 5 s is killed.
func StopProcess(in io.Closer, cmd *exec.Cmd) error {
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		return <-done
	}
}

// ErrTimeout is returned when the driver does not answer in time; the
// driver is restarted.
var ErrTimeout = errors.New("the driver did not answer in time (the call blocked)")

func (d *Driver) do(req map[string]any, timeout time.Duration) (*driverResponse, error) {
	req["timeout"] = timeout.Seconds()
	data, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := d.in.Write(append(data, '\n')); err != nil {
		return nil, fmt.Errorf("writing to the driver: %w", err)
	}
	select {
	case r, ok := <-d.replies:
		if !ok {
			return nil, errors.New("the driver exited")
		}
		if r.err != nil {
			return nil, r.err
		}
		return &r.resp, nil
	case <-time.After(timeout + 5*time.Second):
		d.cmd.Process.Kill()
		d.cmd.Wait()
		if err := d.start(); err != nil {
			return nil, err
		}
		if d.dsn != "" {
			d.Open(d.driver, d.dsn)
		}
		return nil, ErrTimeout
	}
}

// Open makes the driver's handles reach the database at dsn through the
// database/sql driver named driver ("pgx" or "mysql").
func (d *Driver) Open(driver, dsn string) error {
	d.driver, d.dsn = driver, dsn
	r, err := d.do(map[string]any{"op": "open", "driver": driver, "dsn": dsn}, 10*time.Second)
	if err != nil {
		return err
	}
	if r.Err != "" {
		return errors.New(r.Err)
	}
	return nil
}

// Exec runs a statement on the harness's own connection.
func (d *Driver) Exec(ctx context.Context, query string) error {
	r, err := d.do(map[string]any{"op": "exec", "sql": query}, 10*time.Second)
	if err != nil {
		return err
	}
	if r.Err != "" {
		return errors.New(r.Err)
	}
	return nil
}

// Query runs a query on the harness's own connection.
func (d *Driver) Query(ctx context.Context, query string) (*QueryResult, error) {
	r, err := d.do(map[string]any{"op": "query", "sql": query}, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if r.Err != "" {
		return nil, errors.New(r.Err)
	}
	return &QueryResult{Columns: r.Columns, Rows: r.Rows, Nulls: r.Nulls}, nil
}

// Call calls an entry. The error is the driver's failure, not the entry's.
func (d *Driver) Call(ctx context.Context, pkg, entry string, inputs map[string]string, check string, fail []Failure) (*CallResult, error) {
	r, err := d.do(map[string]any{"op": "call", "pkg": pkg, "entry": entry, "inputs": inputs, "check": check, "fail": fail}, d.callTimeout)
	if err != nil {
		return nil, err
	}
	return &CallResult{Err: r.Err, Panic: r.Panic, Violation: r.Violation, Statements: r.Statements, Failed: r.Failed, Injected: r.Injected}, nil
}
