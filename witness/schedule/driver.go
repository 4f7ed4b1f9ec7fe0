package schedule

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule/gate"
)

// driverProc is a running schedule driver.
type driverProc struct {
	bin     string
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies chan driverReply
}

type driverReply struct {
	resp *driverResponse
	err  error
}

type driverLane struct {
	Request string          `json:"request"`
	Done    bool            `json:"done"`
	Err     string          `json:"err"`
	Panic   bool            `json:"panic"`
	Ops     []gate.OpRecord `json:"ops"`
}

type driverViolation struct {
	After string `json:"after"`
	Rows  string `json:"rows"`
}

type driverResponse struct {
	Err        string            `json:"err"`
	Columns    []string          `json:"columns"`
	Rows       [][]string        `json:"rows"`
	Nulls      [][]bool          `json:"nulls"`
	Lanes      []driverLane      `json:"lanes"`
	Steps      []gate.StepRecord `json:"steps"`
	Violations []driverViolation `json:"violations"`
	Problems   []string          `json:"problems"`
}

func startDriver(bin string) (*driverProc, error) {
	d := &driverProc{bin: bin, cmd: exec.Command(bin)}
	var err error
	if d.in, err = d.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the schedule driver: %w", err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	d.replies = make(chan driverReply)
	go func() {
		for sc.Scan() {
			var r driverResponse
			err := json.Unmarshal(sc.Bytes(), &r)
			d.replies <- driverReply{&r, err}
		}
		close(d.replies)
	}()
	return d, nil
}

func (d *driverProc) close() error { return witness.StopProcess(d.in, d.cmd) }

// errDriverStuck: the driver did not answer in time (it is killed).
var errDriverStuck = errors.New("the schedule driver did not answer in time")

func (d *driverProc) do(req map[string]any, timeout time.Duration) (*driverResponse, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := d.in.Write(append(data, '\n')); err != nil {
		return nil, fmt.Errorf("writing to the schedule driver: %w", err)
	}
	select {
	case r, ok := <-d.replies:
		if !ok {
			return nil, errors.New("the schedule driver exited")
		}
		return r.resp, r.err
	case <-time.After(timeout):
		d.cmd.Process.Kill()
		return nil, errDriverStuck
	}
}

// Session is a schedule driver connected to one database.
type Session struct {
	prog        *Program
	proc        *driverProc
	driver, dsn string
}

// Open starts the program's driver on the database at dsn, reached
// through the database/sql driver named driverName ("pgx" or "mysql").
func (p *Program) Open(driverName, dsn string) (*Session, error) {
	s := &Session{prog: p, driver: driverName, dsn: dsn}
	return s, s.restart()
}

func (s *Session) restart() error {
	if s.proc != nil {
		s.proc.close()
	}
	proc, err := startDriver(s.prog.Bin)
	if err != nil {
		return err
	}
	s.proc = proc
	r, err := proc.do(map[string]any{"op": "open", "driver": s.driver, "dsn": s.dsn}, 30*time.Second)
	if err != nil {
		return err
	}
	if r.Err != "" {
		return fmt.Errorf("schedule: opening the database: %s", r.Err)
	}
	return nil
}

// Close stops the driver.
func (s *Session) Close() error { return s.proc.close() }

// Exec runs a statement on the harness's own connection.
func (s *Session) Exec(ctx context.Context, query string) error {
	r, err := s.proc.do(map[string]any{"op": "exec", "sql": query}, 30*time.Second)
	if err != nil {
		return err
	}
	if r.Err != "" {
		return errors.New(r.Err)
	}
	return nil
}

// Query runs a query on the harness's own connection.
func (s *Session) Query(ctx context.Context, query string) (*witness.QueryResult, error) {
	r, err := s.proc.do(map[string]any{"op": "query", "sql": query}, 30*time.Second)
	if err != nil {
		return nil, err
	}
	if r.Err != "" {
		return nil, errors.New(r.Err)
	}
	return &witness.QueryResult{Columns: r.Columns, Rows: r.Rows, Nulls: r.Nulls}, nil
}

// Call is not served by a schedule driver: runs go through Run.
func (s *Session) Call(ctx context.Context, pkg, entry string, inputs map[string]string, check string, fail []witness.Failure) (*witness.CallResult, error) {
	return nil, errors.New("schedule: a schedule driver runs requests through Run, not Call")
}
