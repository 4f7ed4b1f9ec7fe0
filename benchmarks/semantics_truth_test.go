package benchmarks_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// divZeroTruthTest is an in-package test run on a copy of an
// sql_assert_div_zero case (its driver and DSN in DBVERIFY_TEST_DRIVER,
// DBVERIFY_TEST_DSN): an account of balance 5, a debit of 7, then the
// error and the balance left.
const divZeroTruthTest = `package %s

import (
	"context"
	"database/sql"
	"os"
	"testing"
)

func TestDivZero(t *testing.T) {
	db, err := sql.Open(os.Getenv("DBVERIFY_TEST_DRIVER"), os.Getenv("DBVERIFY_TEST_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE IF EXISTS accounts", string(schema), "INSERT INTO accounts (id, balance) VALUES (1, 5)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	werr := Withdraw(context.Background(), db, 1, 7)
	var bal int64
	if err := db.QueryRow("SELECT balance FROM accounts WHERE id = 1").Scan(&bal); err != nil {
		t.Fatal(err)
	}
	t.Logf("DIVZERO withdraw=%%v balance=%%d", werr, bal)
}
`

// TestDivZeroTruth is the ground truth of the sql_assert_div_zero cases
// (adv7 D4): a debit past the balance followed by the SQL assertion
// fails on PostgreSQL (22012 division by zero) and on MariaDB (1 / 0 is
// NULL, and its Scan into an int64 fails), and the debit is rolled back:
// both SAFE. The UNSAFE twins are replayed with the corpus's UNSAFEs.
func TestDivZeroTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers and runs go test")
	}
	needEngines(t)
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	for _, tc := range []struct {
		dir    string
		engine groundtruth.Dialect
		driver string
		want   string
	}{
		{"pg_sql_assert_div_zero_safe", groundtruth.Postgres, "postgres", "(22012) balance=5"},
		{"mysql_sql_assert_div_zero_safe", groundtruth.MySQL, "mysql", "converting NULL to int64 is unsupported balance=5"},
	} {
		out := runTruthTest(t, mod, corpus, truthRun{dir: "dialect/" + tc.dir, engine: tc.engine, driver: tc.driver,
			src: divZeroTruthTest, test: "TestDivZero"})
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: want %q, got\n%s", tc.dir, tc.want, out)
		}
	}
}

// upsertTruthTest runs 300 random usage records of the
// mysql_upsert_two_keys case against MariaDB and fails as soon as a row
// has used > quota.
const upsertTruthTest = `package %s

import (
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"testing"
)

func TestUpsertRandom(t *testing.T) {
	db, err := sql.Open("mysql", os.Getenv("DBVERIFY_TEST_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE IF EXISTS apikeys", string(schema),
		"INSERT INTO apikeys VALUES (1, 'k1', 90, 100), (2, 'k2', 100, 100), (3, 'k3', 0, 10)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		tenant, key, n := rng.Int63n(5)+1, fmt.Sprintf("k%%d", rng.Intn(5)+1), rng.Int63n(30)+1
		_ = record(db, tenant, key, n)
		var bad int
		if err := db.QueryRow("SELECT COUNT(*) FROM apikeys WHERE used > quota").Scan(&bad); err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			t.Fatalf("record %%d (tenant %%d, key %%s, n %%d) broke used <= quota", i, tenant, key, n)
		}
	}
	t.Log("UPSERT 300 records, no violation")
}
`

// TestUpsertTwoKeysTruth is the ground truth of
// mysql_upsert_two_keys_safe (adv7 F2) on MariaDB: random records, with
// tenants and api keys drawn so that the upsert conflicts on one key, the
// other, both or neither, never leave used > quota.
func TestUpsertTwoKeysTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server and runs go test")
	}
	needEngines(t)
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	src := upsertTruthTest + "\nfunc record(db *sql.DB, tenant int64, key string, n int64) error { return Record(db, tenant, key, n) }\n"
	out := runTruthTest(t, mod, corpus, truthRun{dir: "dialect/mysql_upsert_two_keys_safe", engine: groundtruth.MySQL,
		driver: "mysql", src: src, test: "TestUpsertRandom"})
	if !strings.Contains(out, "UPSERT 300 records, no violation") {
		t.Errorf("want no violation, got\n%s", out)
	}
}

// truthRun is an in-package test to run on a copy of a corpus case
// against a throwaway engine.
type truthRun struct {
	dir    string // the case, under the corpus
	engine groundtruth.Dialect
	driver string
	src    string // the test file, a format taking the package name
	test   string
}

// corpusModule returns the corpus directory and a temporary module
// directory holding a copy of the corpus's go.mod and go.sum, where a
// truth test copies the case it runs.
func corpusModule(t *testing.T) (corpus, mod string) {
	t.Helper()
	corpus = corpusDir(t)
	mod = t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(corpus, f), filepath.Join(mod, f))
	}
	return corpus, mod
}

// runTruthTest copies the case into module mod, writes the test, starts
// the engine and runs the test there with DBVERIFY_TEST_DRIVER and
// DBVERIFY_TEST_DSN set; it returns go test's output and reports its
// failure.
func runTruthTest(t *testing.T, mod, corpus string, r truthRun) string {
	t.Helper()
	ctx := context.Background()
	eng, err := groundtruth.Start(ctx, r.engine, t.TempDir())
	if errors.Is(err, groundtruth.ErrMissingBinary) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	dir := filepath.Join(mod, filepath.FromSlash(r.dir))
	copyDir(t, filepath.Join(corpus, filepath.FromSlash(r.dir)), dir, "")
	if err := os.WriteFile(filepath.Join(dir, "truth_test.go"), []byte(fmt.Sprintf(r.src, filepath.Base(r.dir))), 0o644); err != nil {
		t.Fatal(err)
	}
	db, name, err := eng.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^"+r.test+"$", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "DBVERIFY_TEST_DRIVER="+r.driver, "DBVERIFY_TEST_DSN="+eng.DSN(name))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s: go test: %v\n%s", r.dir, err, out)
	}
	return string(out)
}
