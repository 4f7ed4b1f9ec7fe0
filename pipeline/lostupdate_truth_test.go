package pipeline

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// luCase is an entry of testdata/concurrent/lostupdate run by hand on a
// real engine: its read and its write are the SQL the frontend found in
// the entry; what the Go code does between them is mirrored here.
type luCase struct {
	entry string
	tx    bool               // runs in a transaction (BeginTx)
	level sql.IsolationLevel // the transaction's options
	// How the write's arguments are computed from the read: stock-qty
	// (default); qty itself (a relative write, or Restock's count); or
	// stock-qty with the version read, RowsAffected checked.
	relative, count, version bool
	// touch: the entry first runs another UPDATE of the row (its first
	// statement) in the transaction.
	touch bool
	// lock: the entry first locks a warehouse row (its first SELECT),
	// request A's warehouse lockArgs[0], B's lockArgs[1].
	lock     bool
	lockArgs [2]int64
	finding  bool // dbverify reports a lost update
}

// luRequest is one request of a run: its own connection, the values it
// read, and how it ended.
type luRequest struct {
	c              luCase
	read, write    string
	touch, lock    string
	lockArg        int64
	qty            int64
	stock, version int64
	txConn
	drivenRequest
}

// txConn is a request's connection and its open transaction (nil: none).
type txConn struct {
	conn *sql.Conn
	tx   *sql.Tx
}

// querier is the open transaction, else the connection.
func (r *txConn) querier() interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	ExecContext(context.Context, string, ...any) (sql.Result, error)
} {
	if r.tx != nil {
		return r.tx
	}
	return r.conn
}

// beginOp is the operation that begins a transaction at level.
func (r *txConn) beginOp(level sql.IsolationLevel) func(context.Context) error {
	return func(ctx context.Context) (err error) {
		r.tx, err = r.conn.BeginTx(ctx, &sql.TxOptions{Isolation: level})
		return err
	}
}

// open gives the request a connection of db and d a new run whose
// failure rolls the transaction back.
func (r *txConn) open(t *testing.T, ctx context.Context, db *sql.DB, d *drivenRequest) {
	t.Helper()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r.conn, r.tx = conn, nil
	d.reset(func() {
		if r.tx != nil {
			_ = r.tx.Rollback()
		}
	})
}

// build lists the request's database operations: BEGIN (in a
// transaction), the read, the write, COMMIT.
func (r *luRequest) build() {
	if r.c.tx {
		r.ops = append(r.ops, r.beginOp(r.c.level))
	}
	if r.c.touch {
		r.ops = append(r.ops, func(ctx context.Context) error {
			_, err := r.querier().ExecContext(ctx, r.touch, 1)
			return err
		})
	}
	if r.c.lock {
		r.ops = append(r.ops, func(ctx context.Context) error {
			var w int64
			return r.querier().QueryRowContext(ctx, r.lock, r.lockArg).Scan(&w)
		})
	}
	r.ops = append(r.ops, func(ctx context.Context) error {
		if r.c.version {
			return r.querier().QueryRowContext(ctx, r.read, 1).Scan(&r.stock, &r.version)
		}
		return r.querier().QueryRowContext(ctx, r.read, 1).Scan(&r.stock)
	}, func(ctx context.Context) error {
		if r.stock < r.qty && !r.c.count {
			return errors.New("not enough stock")
		}
		args := []any{r.stock - r.qty, 1}
		switch {
		case r.c.relative, r.c.count:
			args = []any{r.qty, 1}
		case r.c.version:
			args = append(args, r.version)
		}
		res, err := r.querier().ExecContext(ctx, r.write, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); r.c.version && (err != nil || n != 1) {
			return errors.New("concurrent update: retry")
		}
		return nil
	})
	if r.c.tx {
		r.ops = append(r.ops, func(context.Context) error { return r.tx.Commit() })
	}
}

// drivenRequest is a request of a ground-truth run: its database
// operations, run one at a time as the driver (drive) grants them; after
// a failure the rest do nothing and rollback is called.
type drivenRequest struct {
	ops      []func(context.Context) error
	rollback func()
	next     int
	err      error
	grant    chan func(context.Context) error
	done     chan struct{}
}

// reset clears the request's state for a new run.
func (r *drivenRequest) reset(rollback func()) {
	r.ops, r.rollback, r.next, r.err = nil, rollback, 0, nil
	r.grant, r.done = make(chan func(context.Context) error), make(chan struct{}, 1)
}

// serve runs the operations the driver grants, one at a time; after a
// failure the rest do nothing (the transaction is rolled back).
func (r *drivenRequest) serve(ctx context.Context) {
	for op := range r.grant {
		if r.err == nil {
			if err := op(ctx); err != nil {
				r.err = err
				r.rollback()
			}
		}
		r.done <- struct{}{}
	}
}

// drive runs the requests' operations in order (a request name per
// operation), each request served by its own goroutine: an operation
// that does not return within a short wait waits for a lock, and the run
// goes on with the other request's operations, as the engine would. It
// returns when every request has run its operations.
func drive(t *testing.T, ctx context.Context, reqs map[string]*drivenRequest, order []string) {
	t.Helper()
	for _, r := range reqs {
		go r.serve(ctx)
	}
	pending := map[string]bool{}
	wait := func(name string, d time.Duration) bool {
		select {
		case <-reqs[name].done:
			delete(pending, name)
			return true
		case <-time.After(d):
			return false
		}
	}
	queue := append([]string(nil), order...)
	for len(queue) > 0 {
		i := 0
		for i < len(queue) && pending[queue[i]] && !wait(queue[i], 0) {
			i++
		}
		if i == len(queue) { // every request waits: let one finish
			if !wait(queue[0], 15*time.Second) {
				t.Fatalf("request %s does not finish", queue[0])
			}
			continue
		}
		name := queue[i]
		queue = append(queue[:i:i], queue[i+1:]...)
		r := reqs[name]
		r.grant <- r.ops[r.next]
		r.next++
		pending[name] = true
		wait(name, 300*time.Millisecond)
	}
	for name := range pending {
		if !wait(name, 15*time.Second) {
			t.Fatalf("request %s does not finish", name)
		}
	}
	for _, r := range reqs {
		close(r.grant)
	}
}

// luRun runs the requests' operations in order (a request name per
// operation; see drive) from stock 10 and returns the final stock.
func luRun(t *testing.T, db *sql.DB, reqs map[string]*luRequest, order []string) int64 {
	t.Helper()
	ctx := context.Background()
	if err := groundtruth.ExecAll(ctx, db, "DROP TABLE IF EXISTS products", "DROP TABLE IF EXISTS warehouses",
		"CREATE TABLE products (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL, version BIGINT NOT NULL DEFAULT 0)",
		"INSERT INTO products (id, stock, version) VALUES (1, 10, 0)",
		"CREATE TABLE warehouses (id BIGINT PRIMARY KEY)", "INSERT INTO warehouses (id) VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	driven := map[string]*drivenRequest{}
	for name, r := range reqs {
		r.open(t, ctx, db, &r.drivenRequest)
		r.build()
		driven[name] = &r.drivenRequest
	}
	drive(t, ctx, driven, order)
	for _, r := range reqs {
		r.conn.Close()
	}
	var stock int64
	if err := db.QueryRowContext(ctx, "SELECT stock FROM products WHERE id = 1").Scan(&stock); err != nil {
		t.Fatal(err)
	}
	return stock
}

// luSQL is the SQL of an entry's SELECTs and UPDATEs, in order.
type luSQL struct{ selects, execs []string }

// luStatements returns the SQL of each entry's SELECTs and UPDATEs, as
// the frontend reads them, and the entries with a lost-update finding.
func luStatements(t *testing.T, pkg, dialect string) (map[string]luSQL, map[string]bool) {
	t.Helper()
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{pkg}, Dialect: Dialect(dialect), Constraints: []string{"products.stock >= 0"},
		Workers: 1, Concurrent: true}
	return entryStatements(t, cfg, report.FindingLostUpdate)
}

// entryStatements returns the SQL of each entry's SELECTs and other
// statements under cfg, as the frontend reads them, and the entries with
// a finding of class.
func entryStatements(t *testing.T, cfg Config, class string) (map[string]luSQL, map[string]bool) {
	t.Helper()
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Class == class {
			found[shortName(f.Entry)] = true
		}
	}
	out := map[string]luSQL{}
	jobs, _ := plannedJobs(t, cfg.withDefaults())
	for _, j := range jobs {
		var sqls luSQL
		for _, e := range j.prog.Edges {
			switch s := e.Stmt.(type) {
			case *ir.Select:
				sqls.selects = append(sqls.selects, s.Info.Text)
			case *ir.Exec:
				sqls.execs = append(sqls.execs, s.Info.Text)
			}
		}
		out[shortName(j.entry)] = sqls
	}
	return out, found
}

// TestLostUpdateFindingGroundTruth runs two requests of each entry of
// testdata/concurrent/lostupdate on a real engine (PostgreSQL 15,
// MariaDB 10.11), stock 10, reserving 3 and 4: in the losing
// interleaving (read A, read B, write and commit A, write and commit B)
// every entry with a lost-update finding ends with a stock that differs
// from both serial orders (3), both requests having succeeded; every
// entry without one ends where the requests that succeeded would end one
// after the other (a FOR UPDATE read waits, a version check or a
// serialization failure or deadlock fails a request).
func TestLostUpdateFindingGroundTruth(t *testing.T) {
	pg := []luCase{
		{entry: "Reserve", finding: true},
		{entry: "ReserveTx", tx: true, finding: true},
		{entry: "ReserveLocked", tx: true},
		{entry: "ReserveRelative", relative: true},
		{entry: "ReserveVersioned", version: true},
		{entry: "ReserveRepeatable", tx: true, level: sql.LevelRepeatableRead},
		{entry: "Restock", count: true},
		{entry: "ReserveAfterTouch", tx: true, touch: true},
		{entry: "ReserveInWarehouse", tx: true, lock: true, lockArgs: [2]int64{1, 2}, finding: true},
		{entry: "ReserveSerialized", tx: true, lock: true, lockArgs: [2]int64{1, 1}},
	}
	my := []luCase{
		{entry: "ReserveTx", tx: true, finding: true},
		{entry: "ReserveSerializable", tx: true, level: sql.LevelSerializable},
	}
	for _, eng := range []struct {
		dialect groundtruth.Dialect
		pkg     string
		cases   []luCase
	}{{groundtruth.Postgres, "./lostupdate", pg}, {groundtruth.MySQL, "./lostupdate/mysql", my}} {
		t.Run(string(eng.dialect), func(t *testing.T) {
			name := "postgres"
			if eng.dialect == groundtruth.MySQL {
				name = "mysql"
			}
			stmts, found := luStatements(t, eng.pkg, name)
			e := groundtruth.StartForTest(t, eng.dialect)
			db, _, err := e.NewDatabase(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, c := range eng.cases {
				t.Run(c.entry, func(t *testing.T) {
					checkLostUpdateTruth(t, db, c, stmts, found)
				})
			}
		})
	}
}

func checkLostUpdateTruth(t *testing.T, db *sql.DB, c luCase, stmts map[string]luSQL, found map[string]bool) {
	var sqls luSQL
	for k, v := range stmts {
		if strings.HasSuffix(k, "."+c.entry) {
			sqls = v
		}
	}
	selects, execs := 1, 1
	if c.touch {
		execs++
	}
	if c.lock {
		selects++
	}
	if len(sqls.selects) != selects || len(sqls.execs) != execs {
		t.Fatalf("%s: statements %+v, want %d SELECTs and %d UPDATEs", c.entry, sqls, selects, execs)
	}
	read, write := sqls.selects[selects-1], sqls.execs[execs-1]
	touch, lock := sqls.execs[0], sqls.selects[0]
	finding := false
	for k := range found {
		finding = finding || strings.HasSuffix(k, "."+c.entry)
	}
	if finding != c.finding {
		t.Errorf("lost-update finding reported %v, want %v", finding, c.finding)
	}
	reqs := func() map[string]*luRequest {
		return map[string]*luRequest{"A": {c: c, read: read, write: write, touch: touch, lock: lock, lockArg: c.lockArgs[0], qty: 3},
			"B": {c: c, read: read, write: write, touch: touch, lock: lock, lockArg: c.lockArgs[1], qty: 4}}
	}
	n := 2
	if c.tx {
		n = 4
	}
	if c.touch || c.lock {
		n++
	}
	seq := func(names ...string) []string {
		var out []string
		for _, x := range names {
			for i := 0; i < n; i++ {
				out = append(out, x)
			}
		}
		return out
	}
	alone := map[string]int64{"A": luRun(t, db, pickRequests(reqs(), "A"), seq("A")), "B": luRun(t, db, pickRequests(reqs(), "B"), seq("B"))}
	ab := luRun(t, db, reqs(), seq("A", "B"))
	ba := luRun(t, db, reqs(), seq("B", "A"))
	race := []string{"A", "B", "A", "B", "A", "A", "B", "B"} // begin A, begin B, read A, read B, write A, commit A, write B, commit B
	switch {
	case c.touch || c.lock:
		race = []string{"A", "B", "A", "B", "A", "B", "A", "A", "B", "B"} // begin, touch or lock, read of each, then write and commit A, then B
	case !c.tx:
		race = []string{"A", "B", "A", "B"} // read A, read B, write A, write B
	}
	rs := reqs()
	final := luRun(t, db, rs, race)
	t.Logf("%s: serial A;B %d, B;A %d; interleaved %d (A: %v, B: %v)", c.entry, ab, ba, final, rs["A"].err, rs["B"].err)
	okA, okB := rs["A"].err == nil, rs["B"].err == nil
	if c.finding {
		if !okA || !okB || final == ab || final == ba {
			t.Errorf("the losing interleaving did not lose an update: final %d, serial %d and %d, errors %v, %v", final, ab, ba, rs["A"].err, rs["B"].err)
		}
		return
	}
	var allowed []int64
	switch {
	case okA && okB:
		allowed = []int64{ab, ba}
	case okA:
		allowed = []int64{alone["A"]}
	case okB:
		allowed = []int64{alone["B"]}
	default:
		allowed = []int64{10}
	}
	for _, v := range allowed {
		if v == final {
			return
		}
	}
	t.Errorf("final stock %d, want one of %v (the serial outcome of the requests that succeeded; errors %v, %v)", final, allowed, rs["A"].err, rs["B"].err)
}

// plannedJobs are the jobs cfg (with its defaults) plans, and what it
// loaded.
func plannedJobs(t *testing.T, cfg Config) ([]job, *inputs) {
	t.Helper()
	in, err := load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := plan(cfg, in, &report.Report{})
	if err != nil {
		t.Fatal(err)
	}
	return jobs, in
}

func pickRequests(all map[string]*luRequest, name string) map[string]*luRequest {
	return map[string]*luRequest{name: all[name]}
}
