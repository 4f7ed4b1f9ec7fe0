package benchmarks_test

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// nullScanTruthTest is an in-package test run on a copy of a null_scan
// case against a MariaDB database (its DSN in DBVERIFY_TEST_DSN): rows
// 1 and 3 have a NULL reserved, row 2 a number.
const nullScanTruthTest = `package %s

import (
	"database/sql"
	"math/rand"
	"os"
	"testing"
)

func open(t *testing.T) *Store {
	db, err := sql.Open("mysql", os.Getenv("DBVERIFY_TEST_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE IF EXISTS warehouse_stock", string(schema),
		"INSERT INTO warehouse_stock (id, product_id, stock, reserved) VALUES (1, 7, 10, NULL), (2, 7, 5, 2), (3, 7, 0, NULL)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return &Store{DB: db}
}

// TestNullTransfer transfers the whole stock of row 1 (reserved NULL)
// and reports the error and the stock left.
func TestNullTransfer(t *testing.T) {
	s := open(t)
	err := s.TransferStock(1, 2, 10)
	var stock int64
	if err := s.DB.QueryRow("SELECT stock FROM warehouse_stock WHERE id = 1").Scan(&stock); err != nil {
		t.Fatal(err)
	}
	t.Logf("NULLSCAN transfer=%%v stock=%%d", err, stock)
}

// TestNullRandom runs random requests; both constraints must hold (a
// NULL counts as holding) after each.
func TestNullRandom(t *testing.T) {
	s := open(t)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		id, qty := rng.Int63n(3)+1, rng.Int63n(12)-1
		switch rng.Intn(3) {
		case 0:
			_ = s.TransferStock(id, rng.Int63n(3)+1, qty)
		case 1:
			_ = s.Reserve(id, qty)
		default:
			_ = s.Release(id, qty)
		}
		var bad int
		if err := s.DB.QueryRow("SELECT COUNT(*) FROM warehouse_stock WHERE stock < 0 OR reserved < 0").Scan(&bad); err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			t.Fatalf("request %%d broke a constraint", i)
		}
	}
}
`

// TestNullScanTruth is the ground truth of the null_scan cases (issue 8)
// on MariaDB: a NULL scanned into an int64 fails the Scan, so the
// int64 case's transfer of a NULL-reserved row returns that error and
// changes nothing; scanned into sql.NullInt64 it reads 0 and the transfer
// of the whole stock succeeds, leaving 0. Random requests from rows with
// NULLs keep both constraints in both cases (both SAFE).
func TestNullScanTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server and runs go test")
	}
	needEngines(t)
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	run := func(c string) string {
		return runTruthTest(t, mod, corpus, truthRun{dir: "trust/" + c, engine: groundtruth.MySQL, driver: "mysql",
			src: nullScanTruthTest, test: "TestNull(Transfer|Random)"})
	}
	if out := run("null_scan_int64_safe"); !strings.Contains(out, "converting NULL to int64 is unsupported stock=10") {
		t.Errorf("int64 case: want the Scan of the NULL to fail and the stock kept, got\n%s", out)
	}
	if out := run("null_scan_nullint64_safe"); !strings.Contains(out, "transfer=<nil> stock=0") {
		t.Errorf("NullInt64 case: want the whole stock moved, got\n%s", out)
	}
}
