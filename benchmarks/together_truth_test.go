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

// togetherTruthTest is an in-package test run on a copy of a
// constraints_together case against a MariaDB database (its DSN in
// DBVERIFY_TEST_DSN): it creates the case's table with rows that satisfy
// both constraints, runs the case's requests and reports the smallest
// stock and reserved seen after each.
const togetherTruthTest = `package %s

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
		"INSERT INTO warehouse_stock (id, product_id, stock, reserved) VALUES (1, 7, 10, 0), (2, 7, 5, 2), (3, 7, 0, 0)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return &Store{DB: db}
}

func minima(t *testing.T, s *Store) (stock, reserved int64) {
	if err := s.DB.QueryRow("SELECT MIN(stock), MIN(reserved) FROM warehouse_stock").Scan(&stock, &reserved); err != nil {
		t.Fatal(err)
	}
	return stock, reserved
}

// TestTogetherRandom runs random requests; both constraints must hold
// after each.
func TestTogetherRandom(t *testing.T) {
	s := open(t)
	rng := rand.New(rand.NewSource(1))
	qtys := []int64{-1, 0, 1, 2, 3, 5, 8, 10, 15}
	for i := 0; i < 600; i++ {
		id, to, q := int64(1+rng.Intn(3)), int64(1+rng.Intn(3)), qtys[rng.Intn(len(qtys))]
		switch rng.Intn(3) {
		case 0:
			_ = s.TransferStock(id, to, q)
		case 1:
			_ = s.Reserve(id, q)
		case 2:
			_ = s.Release(id, q)
		}
		if stock, reserved := minima(t, s); stock < 0 || reserved < 0 {
			t.Fatalf("after request %%d: min stock %%d, min reserved %%d", i, stock, reserved)
		}
	}
}

// TestTogetherSequence releases more than is reserved, then transfers
// the units that seem available.
func TestTogetherSequence(t *testing.T) {
	s := open(t)
	release, transfer := s.Release(1, 5), s.TransferStock(1, 3, 12)
	stock, reserved := minima(t, s)
	t.Logf("TOGETHER release=%%v transfer=%%v stock=%%d reserved=%%d", release, transfer, stock, reserved)
}
`

// TestConstraintsTogetherTruth is the ground truth of the
// constraints_together cases (issue 8, D4) on MariaDB: the SAFE case's
// requests keep both constraints over random sequences (and refuse the
// release-then-transfer sequence), while the UNSAFE twin's unchecked
// release followed by a transfer leaves a negative stock, the run of two
// requests behind its TransferStock [stock >= 0] UNKNOWN.
func TestConstraintsTogetherTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server and runs go test")
	}
	needEngines(t)
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	ctx := context.Background()
	eng, err := groundtruth.Start(ctx, groundtruth.MySQL, t.TempDir())
	if errors.Is(err, groundtruth.ErrMissingBinary) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	run := func(c, test string) (string, error) {
		dir := filepath.Join(mod, "trust", c)
		copyDir(t, filepath.Join(corpus, "trust", c), dir, "")
		src := fmt.Sprintf(togetherTruthTest, c)
		if err := os.WriteFile(filepath.Join(dir, "truth_test.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		db, name, err := eng.NewDatabase(ctx)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^"+test+"$", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "DBVERIFY_TEST_DSN="+eng.DSN(name))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("constraints_together_safe", "TestTogetherRandom"); err != nil {
		t.Errorf("safe case, random requests: %v\n%s", err, out)
	}
	if out, err := run("constraints_together_safe", "TestTogetherSequence"); err != nil || !strings.Contains(out, "stock=0 reserved=0") {
		t.Errorf("safe case, release then transfer: want both refused (stock 0 of row 3, reserved 0), got %v\n%s", err, out)
	}
	if out, err := run("constraints_together_unsafe", "TestTogetherSequence"); err != nil || !strings.Contains(out, "release=<nil> transfer=<nil> stock=-2 reserved=-5") {
		t.Errorf("unsafe case, release then transfer: want stock -2, got %v\n%s", err, out)
	}
}
