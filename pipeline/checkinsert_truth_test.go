package pipeline

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/report"
)

// ciCase is an entry of testdata/concurrent/checkinsert run by hand on a
// real engine: its read and its INSERT are the SQL the frontend found in
// the entry; what the Go code does between them is mirrored here.
type ciCase struct {
	entry string
	tx    bool               // runs in a transaction (BeginTx)
	level sql.IsolationLevel // the transaction's options
	// row: the read scans a row (none: ErrNoRows), else it counts rows.
	row bool
	// lock: the entry first locks the user's row (its first SELECT).
	lock bool
	// limit is the count the entry inserts below (1: "none").
	limit int64
	// handled: the code tells a unique violation from other errors.
	handled bool
	// finding: dbverify reports a check-then-insert; unique: its message
	// is the unhandled unique violation (a key refuses the second row).
	finding, unique bool
}

// ciRequest is one request of a run: user 1 redeems coupon 7.
type ciRequest struct {
	c                  ciCase
	read, insert, lock string
	amount             int64
	skip               bool // the read found the row: no insert
	txConn
	drivenRequest
}

// build lists the request's database operations: BEGIN (in a
// transaction), the lock of the user's row, the read, the INSERT, COMMIT.
func (r *ciRequest) build() {
	if r.c.tx {
		r.ops = append(r.ops, r.beginOp(r.c.level))
	}
	if r.c.lock {
		r.ops = append(r.ops, func(ctx context.Context) error {
			var u int64
			return r.querier().QueryRowContext(ctx, r.lock, 1).Scan(&u)
		})
	}
	r.ops = append(r.ops, r.readOp, func(ctx context.Context) error {
		if r.skip {
			return nil
		}
		_, err := r.querier().ExecContext(ctx, r.insert, 1, 7, r.amount)
		if err != nil && r.c.handled && strings.Contains(err.Error(), "duplicate key") {
			r.skip = true // the code's own check: already redeemed
			return nil
		}
		return err
	})
	if r.c.tx {
		r.ops = append(r.ops, func(context.Context) error {
			if r.skip {
				return r.tx.Rollback() // the code returned "already redeemed"
			}
			return r.tx.Commit()
		})
	}
}

// readOp reads whether user 1 has redeemed coupon 7.
func (r *ciRequest) readOp(ctx context.Context) error {
	if r.c.row {
		var id int64
		err := r.querier().QueryRowContext(ctx, r.read, 1, 7).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		r.skip = err == nil
		return err
	}
	var n int64
	err := r.querier().QueryRowContext(ctx, r.read, 1, 7).Scan(&n)
	r.skip = n >= r.c.limit
	return err
}

// ciRun creates the tables of ddl, runs the requests' operations in
// order (see drive) and returns the number of rows of table for user 1
// and coupon 7.
func ciRun(t *testing.T, db *sql.DB, ddl []string, table string, reqs map[string]*ciRequest, order []string) int64 {
	t.Helper()
	ctx := context.Background()
	if err := groundtruth.ExecAll(ctx, db, ddl...); err != nil {
		t.Fatal(err)
	}
	driven := map[string]*drivenRequest{}
	for name, r := range reqs {
		r.open(t, ctx, db, &r.drivenRequest)
		r.skip = false
		r.build()
		driven[name] = &r.drivenRequest
	}
	drive(t, ctx, driven, order)
	for _, r := range reqs {
		r.conn.Close()
	}
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE user_id = 1 AND coupon_id = 7").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// schemaDDL returns the statements of a testdata schema file, after
// DROP TABLEs of its tables.
func schemaDDL(t *testing.T, path string, tables ...string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tb := range tables {
		out = append(out, "DROP TABLE IF EXISTS "+tb)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	for _, s := range strings.Split(strings.Join(lines, "\n"), ";") {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return append(out, "INSERT INTO users (id) VALUES (1)")
}

// TestCheckInsertFindingGroundTruth runs two requests of each entry of
// testdata/concurrent/checkinsert on a real engine (PostgreSQL 15,
// MariaDB 10.11), both redeeming coupon 7 for user 1, in the losing
// interleaving (read A, read B, insert and commit A, insert and commit
// B): every entry with a check-then-insert finding ends with two rows of
// the key, both requests succeeding, or, where the message is the
// unhandled unique violation, with one row and a request failed with
// 23505 / 1062; every entry without one ends with the rows a serial
// order gives (one), a failed request failing with an error the code
// handles or the engine's retryable 40001 / deadlock.
func TestCheckInsertFindingGroundTruth(t *testing.T) {
	pg := []ciCase{
		{entry: "Redeem", tx: true, finding: true},
		{entry: "RedeemRow", row: true, finding: true},
		{entry: "RedeemForUpdate", tx: true, row: true, finding: true},
		{entry: "RedeemRepeatable", tx: true, level: sql.LevelRepeatableRead, finding: true},
		{entry: "RedeemSerializable", tx: true, level: sql.LevelSerializable},
		{entry: "RedeemLockingUser", tx: true, lock: true},
		{entry: "RedeemUpToThree", limit: 3},
		{entry: "Claim", tx: true, finding: true, unique: true},
		{entry: "ClaimRepeatable", tx: true, level: sql.LevelRepeatableRead, finding: true, unique: true},
		{entry: "ClaimHandled", tx: true, handled: true},
		{entry: "ClaimOnConflict"},
	}
	my := []ciCase{
		{entry: "Redeem", tx: true, finding: true},
		{entry: "RedeemForUpdate", tx: true},
		{entry: "RedeemForUpdateRC", tx: true, level: sql.LevelReadCommitted, finding: true},
		{entry: "RedeemSerializable", tx: true, level: sql.LevelSerializable},
	}
	for _, eng := range []struct {
		dialect groundtruth.Dialect
		pkg     string
		cases   []ciCase
	}{{groundtruth.Postgres, "./checkinsert", pg}, {groundtruth.MySQL, "./checkinsert/mysql", my}} {
		t.Run(string(eng.dialect), func(t *testing.T) {
			dir := testdataDir(t, "concurrent")
			schema := filepath.Join(dir, eng.pkg, "schema.sql")
			ddl := schemaDDL(t, schema, "coupon_claims", "coupon_redemptions", "users")
			if eng.dialect == groundtruth.MySQL {
				ddl = append(ddl[:len(ddl)-1], "CREATE TABLE users (id BIGINT PRIMARY KEY)", ddl[len(ddl)-1])
			}
			cfg := Config{Dir: dir, Patterns: []string{eng.pkg}, Dialect: Dialect(eng.dialect), Schema: schema,
				Constraints: []string{"coupon_redemptions.amount > 0"}, Workers: 1, Concurrent: true}
			if eng.dialect == groundtruth.Postgres {
				cfg.Constraints = append(cfg.Constraints, "coupon_claims.amount > 0")
			}
			stmts, found := entryStatements(t, cfg, report.FindingCheckInsert)
			e := groundtruth.StartForTest(t, eng.dialect)
			db, _, err := e.NewDatabase(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, c := range eng.cases {
				t.Run(c.entry, func(t *testing.T) {
					checkInsertTruth(t, db, ddl, c, stmts, found)
				})
			}
		})
	}
}

func checkInsertTruth(t *testing.T, db *sql.DB, ddl []string, c ciCase, stmts map[string]luSQL, found map[string]bool) {
	var sqls luSQL
	finding := false
	for k, v := range stmts {
		if strings.HasSuffix(k, "."+c.entry) {
			sqls, finding = v, found[k]
		}
	}
	selects := 1
	if c.lock {
		selects++
	}
	if len(sqls.selects) != selects || len(sqls.execs) != 1 {
		t.Fatalf("%s: statements %+v, want %d SELECTs and 1 INSERT", c.entry, sqls, selects)
	}
	if finding != c.finding {
		t.Errorf("check-then-insert finding reported %v, want %v", finding, c.finding)
	}
	if c.limit == 0 {
		c.limit = 1
	}
	table := "coupon_redemptions"
	if strings.HasPrefix(c.entry, "Claim") {
		table = "coupon_claims"
	}
	reqs := func() map[string]*ciRequest {
		mk := func(amount int64) *ciRequest {
			return &ciRequest{c: c, read: sqls.selects[selects-1], insert: sqls.execs[0], lock: sqls.selects[0], amount: amount}
		}
		return map[string]*ciRequest{"A": mk(5), "B": mk(6)}
	}
	n := 2
	if c.tx {
		n += 2
	}
	if c.lock {
		n++
	}
	var serial []string
	for _, x := range []string{"A", "B"} {
		for i := 0; i < n; i++ {
			serial = append(serial, x)
		}
	}
	want := ciRun(t, db, ddl, table, reqs(), serial)
	var race []string // each request's operations up to its read, alternating; then A's rest, then B's
	for i := 0; i < n-1-btoi(c.tx); i++ {
		race = append(race, "A", "B")
	}
	for i := 0; i < 1+btoi(c.tx); i++ {
		race = append(race, "A")
	}
	for i := 0; i < 1+btoi(c.tx); i++ {
		race = append(race, "B")
	}
	rs := reqs()
	got := ciRun(t, db, ddl, table, rs, race)
	errA, errB := rs["A"].err, rs["B"].err
	t.Logf("%s: serial A;B %d row(s); interleaved %v: %d row(s) (A: %v, B: %v)", c.entry, want, race, got, errA, errB)
	switch {
	case c.finding && !c.unique:
		if errA != nil || errB != nil || got != 2 || want != 1 {
			t.Errorf("the losing interleaving did not insert twice: %d row(s), serial %d, errors %v, %v", got, want, errA, errB)
		}
	case c.finding:
		if got != 1 || (errA == nil) == (errB == nil) || !uniqueViolation(errA, errB) {
			t.Errorf("the losing interleaving did not fail one request with a unique violation: %d row(s), errors %v, %v", got, errA, errB)
		}
	default:
		if got != want {
			t.Errorf("%d row(s) interleaved, %d serially (errors %v, %v)", got, want, errA, errB)
		}
		for _, err := range []error{errA, errB} {
			if err != nil && !retryable(err) {
				t.Errorf("a request failed with %v, neither handled by the code nor a serialization failure or deadlock", err)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// uniqueViolation reports whether one of errs is a unique violation
// (PostgreSQL 23505, MySQL 1062).
func uniqueViolation(errs ...error) bool {
	for _, err := range errs {
		if err != nil && (strings.Contains(err.Error(), "23505") || strings.Contains(err.Error(), "1062")) {
			return true
		}
	}
	return false
}

// retryable reports a serialization failure (40001) or a deadlock
// (40P01, MySQL 1213).
func retryable(err error) bool {
	s := err.Error()
	return strings.Contains(s, "40001") || strings.Contains(s, "40P01") || strings.Contains(s, "1213")
}
