package schedule_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sqliteStressRounds is the number of rounds of TestSQLiteSerialStress per
// journal mode.
var sqliteStressRounds = flag.Int("sqlite.stress_rounds", 300, "rounds of free-running concurrent requests per journal mode in TestSQLiteSerialStress")

// sqliteStressMain runs the wallet of a SQLite corpus case ({{CASE}})
// without a scheduler: each round seeds a balance, starts 2–6 goroutines,
// each its own pool (a replica of the app) making a request ({{CALL}})
// with a random amount at once, waits, and reads the balance. It prints
// its tally as JSON.
const sqliteStressMain = `package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"

	w "example.com/corpus/concurrent/{{CASE}}"
)

type tally struct {
	Rounds, Requests, OK, Busy, Refused, Other, Violations int
	Lowest                                                 int64
	Examples                                               []string
}

func main() {
	dsn, rounds := os.Args[1], 0
	fmt.Sscan(os.Args[2], &rounds)
	admin, err := sql.Open("sqlite", dsn)
	if err != nil {
		panic(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)"); err != nil {
		panic(err)
	}
	var pools []*sql.DB
	for i := 0; i < 6; i++ {
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			panic(err)
		}
		defer db.Close()
		pools = append(pools, db)
	}
	rng := rand.New(rand.NewSource(7))
	t := tally{Lowest: 1 << 62}
	ctx := context.Background()
	for r := 0; r < rounds; r++ {
		start := int64(rng.Intn(120))
		if _, err := admin.Exec("DELETE FROM accounts; INSERT INTO accounts (id, balance) VALUES (1, ?)", start); err != nil {
			panic(err)
		}
		n := 2 + rng.Intn(5)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			s := w.NewStore(pools[i])
			amount := int64(1 + rng.Intn(100))
			kind := rng.Intn(5)
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				{{CALL}}
			}(i)
		}
		wg.Wait()
		t.Rounds++
		t.Requests += n
		for _, err := range errs {
			switch {
			case err == nil:
				t.OK++
			case strings.Contains(err.Error(), "database is locked"):
				t.Busy++
			case strings.Contains(err.Error(), "insufficient"):
				t.Refused++
			default:
				t.Other++
				if len(t.Examples) < 5 {
					t.Examples = append(t.Examples, err.Error())
				}
			}
		}
		var bal int64
		if err := admin.QueryRow("SELECT balance FROM accounts WHERE id = 1").Scan(&bal); err != nil {
			panic(err)
		}
		t.Lowest = min(t.Lowest, bal)
		if bal < 0 {
			t.Violations++
		}
	}
	json.NewEncoder(os.Stdout).Encode(t)
}
`

// stressCases are the programs TestSQLiteSerialStress runs: the SAFE
// case's three entries (a deposit one time in five, SpendLenient two,
// Spend two), and, to show the runs find a race where there is one, the
// autocommit case's Spend.
var stressCases = []struct{ name, call string }{
	{"sqlite_wallet_tx_safe", `switch kind {
				case 0:
					errs[i] = s.Deposit(ctx, 1, amount)
				case 1, 2:
					errs[i] = s.SpendLenient(ctx, 1, amount)
				default:
					errs[i] = s.Spend(ctx, 1, amount)
				}`},
	{"sqlite_wallet_autocommit_unsafe", `_ = kind
				errs[i] = s.Spend(ctx, 1, amount)`},
}

// TestSQLiteSerialStress is the ground truth of the serial proof on SQLite
// without the schedule driver's gate: goroutines run the SAFE case's
// requests truly at once (each with its own pool, as replicas of the
// app), random amounts from random balances, many rounds, under the
// rollback journal, under WAL, and under WAL with BEGIN IMMEDIATE, and
// the balance never goes below 0;
// the losers fail with SQLITE_BUSY (database is locked). The same runs of
// the autocommit case (check and debit each committing on its own) end
// below 0.
func TestSQLiteSerialStress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with modernc.org/sqlite")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "benchmarks", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range stressCases {
		t.Run(sc.name, func(t *testing.T) {
			bin := buildStress(t, root, sc.name, sc.call)
			violations := 0
			for _, mode := range stressModes {
				got := runStress(t, bin, mode)
				violations += got.Violations
				t.Logf("%s: %d rounds, %d requests: %d succeeded, %d refused (insufficient), %d failed with SQLITE_BUSY, %d other errors %v; %d rounds ended below 0, lowest final balance %d",
					mode, got.Rounds, got.Requests, got.OK, got.Refused, got.Busy, got.Other, got.Examples, got.Violations, got.Lowest)
			}
			safe := strings.HasSuffix(sc.name, "_safe")
			if safe && violations > 0 {
				t.Errorf("%d rounds ended below 0: the serial proof's SAFE is wrong", violations)
			}
			if !safe && violations == 0 {
				t.Errorf("no round ended below 0: the runs do not show the race the case has")
			}
		})
	}
}

// stressModes are the DSN settings the stress programs run under: the
// rollback journal and WAL with database/sql's BEGIN (DEFERRED), and WAL
// with BEGIN IMMEDIATE (the write lock taken at BEGIN).
var stressModes = []string{"journal_mode(MEMORY)", "journal_mode(WAL)", "journal_mode(WAL)&_txlock=immediate"}

// stressTally is what a stress program prints.
type stressTally struct {
	Rounds, Requests, OK, Busy, Refused, Other, Violations int
	Lowest                                                 int64
	Examples                                               []string
}

// buildStress builds sqliteStressMain for the corpus case name, calling
// its entries with call, inside the corpus module (an overlay adds the
// main package there).
func buildStress(t *testing.T, root, name, call string) string {
	t.Helper()
	dir := t.TempDir()
	src := strings.ReplaceAll(strings.ReplaceAll(sqliteStressMain, "{{CASE}}", name), "{{CALL}}", call)
	mainPath := filepath.Join(dir, "main.go")
	if err := os.WriteFile(mainPath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, "zzsqlitestress", "main.go"): mainPath}})
	if err != nil {
		t.Fatal(err)
	}
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "stress")
	build := exec.Command("go", "build", "-ldflags=-s -w", "-overlay", ovPath, "-o", bin, "./zzsqlitestress")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the stress program: %v\n%s", err, out)
	}
	return bin
}

// runStress runs a stress program on a fresh database file with the DSN
// settings mode.
func runStress(t *testing.T, bin, mode string) stressTally {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "wallet.db") + "?_pragma=busy_timeout(5000)&_pragma=" + mode
	out, err := exec.Command(bin, dsn, strconv.Itoa(*sqliteStressRounds)).Output()
	if err != nil {
		t.Fatalf("%s: stress run: %v", mode, err)
	}
	var got stressTally
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v: %s", mode, err, out)
	}
	if got.Rounds != *sqliteStressRounds {
		t.Fatalf("%s: %d rounds ran, want %d", mode, got.Rounds, *sqliteStressRounds)
	}
	return got
}
