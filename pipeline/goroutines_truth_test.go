package pipeline

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// TestGoroutineConflictGroundTruth runs on a throwaway PostgreSQL the two
// UPDATEs that the UNKNOWN of testdata/goroutine's Ship names — the
// goroutine's unchecked debit of amt and the handler's guarded debit of
// one unit, as the frontend read them — in both orders, from balance 5
// and amt 5. The goroutine's first (the order of the program with the
// goroutine kept at its go statement) ends at 0; the handler's first ends
// at -1. So keeping the go-statement order there would be a wrong SAFE,
// and the conflict is real. It then runs Ship's code itself, goroutine
// and all, and logs how often the race broke the constraint (the Go
// scheduler decides; not asserted).
func TestGoroutineConflictGroundTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	cfg := Config{Dir: testdataDir(t, "goroutine"), Patterns: []string{"./..."}, Dialect: "postgres", Entry: "^Ship$",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unknown {
		t.Fatalf("Ship: %v, want one UNKNOWN", rep.Results)
	}
	cfg = cfg.withDefaults()
	in, err := load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := plan(cfg, in, &report.Report{})
	if err != nil {
		t.Fatal(err)
	}
	p := jobs[0].prog
	if len(p.Goroutines) != 1 {
		t.Fatalf("%d goroutines, want 1", len(p.Goroutines))
	}
	c := interleave.GoroutineConflict(p, p.Goroutines[0], nil)
	if c == nil || c.Var != nil {
		t.Fatalf("conflict %+v, want two database statements", c)
	}
	goSQL, restSQL := c.Goroutine.Stmt.(*ir.Exec).Text, c.Other.Stmt.(*ir.Exec).Text
	for _, s := range []string{goSQL, restSQL} {
		if !strings.Contains(rep.Results[0].Reason, s) {
			t.Errorf("the reason %q does not name %q", rep.Results[0].Reason, s)
		}
	}
	e := groundtruth.StartForTest(t, groundtruth.Postgres)
	ctx := context.Background()
	db, _, err := e.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := groundtruth.ExecAll(ctx, db, "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	const id, amt = 1, 5
	goStmt := func() error { _, err := db.ExecContext(ctx, goSQL, amt, id); return err }
	restStmt := func() error { _, err := db.ExecContext(ctx, restSQL, id); return err }
	for _, order := range []struct {
		name        string
		first, then func() error
		want        int64
	}{{"goroutine first", goStmt, restStmt, 0}, {"handler first", restStmt, goStmt, -1}} {
		if got := runOrder(t, db, amt, order.first, order.then); got != order.want {
			t.Errorf("%s: balance %d, want %d", order.name, got, order.want)
		}
	}
	broke := 0
	const runs = 20
	for range runs {
		if shipRace(t, db, id, amt) < 0 {
			broke++
		}
	}
	t.Logf("Ship's own code on PostgreSQL: %d of %d runs from balance %d ended below 0", broke, runs, amt)
}

// runOrder resets account 1 to balance and runs two statements in order;
// it returns the final balance.
func runOrder(t *testing.T, db *sql.DB, balance int64, first, then func() error) int64 {
	t.Helper()
	ctx := context.Background()
	if err := groundtruth.ExecAll(ctx, db, "DELETE FROM accounts"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO accounts (id, balance) VALUES (1, $1)", balance); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{first, then} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	var got int64
	if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = 1").Scan(&got); err != nil {
		t.Fatal(err)
	}
	return got
}

// shipRace runs Ship's code (testdata/goroutine/store.go) from balance
// amt, waits for its goroutine, and returns the final balance.
func shipRace(t *testing.T, db *sql.DB, id, amt int64) int64 {
	t.Helper()
	var wg sync.WaitGroup
	return runOrder(t, db, amt, func() error {
		ctx := context.Background()
		var bal int64
		if err := db.QueryRowContext(ctx, "SELECT balance FROM accounts WHERE id = $1", id).Scan(&bal); err != nil {
			return err
		}
		if bal < amt {
			return nil
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = db.ExecContext(context.Background(), "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amt, id)
		}()
		_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = $1 AND balance >= 1", id)
		wg.Wait()
		return err
	}, func() error { return nil })
}
