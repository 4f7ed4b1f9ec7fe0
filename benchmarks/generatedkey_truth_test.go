package benchmarks_test

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// generatedKeyTruthTest is an in-package test run on a copy of a
// generated-key upsert case (adv8 F5): the schema, a row inserted with an
// explicit id 1 already at its maximum (__SEED__), then the case's upsert
// that omits the id (__CALL__); it prints how many rows break the
// constraint (__VIOLATED__).
const generatedKeyTruthTest = `package %s

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
)

func TestGeneratedKey(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open(os.Getenv("DBVERIFY_TEST_DRIVER"), os.Getenv("DBVERIFY_TEST_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ddl, err := os.ReadFile("schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(ddl), "__SEED__"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%%s: %%v", q, err)
		}
	}
	fmt.Println("upsert error:", __CALL__)
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM __VIOLATED__").Scan(&n); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("GENERATED KEY violations=%%d\n", n)
}
`

// TestGeneratedKeyTruth is the ground truth of the generated-key upsert
// cases (adv8 F5): an upsert that omits a MySQL AUTO_INCREMENT or SQLite
// rowid key never conflicts with a row inserted with an explicit id, while
// a PostgreSQL sequence, not advanced by it, returns that id and the
// upsert updates the row.
func TestGeneratedKeyTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers and runs go test")
	}
	needEngines(t)
	t.Parallel()
	recordInputs(t)
	corpus, mod := corpusModule(t)
	passes := "INSERT INTO passes (id, holder, uses, max_uses) VALUES (1, 'old', 3, 3)"
	for _, tc := range []struct {
		dir            string
		engine         groundtruth.Dialect
		driver, seed   string
		violated, call string
		want           string
	}{
		{"mysql_upsert_autoinc_safe", groundtruth.MySQL, "mysql",
			"INSERT INTO coupons (id, campaign, redeemed, max_redeem) VALUES (1, 'spring', 3, 3)",
			"coupons WHERE redeemed > max_redeem", `Issue(ctx, db, "spring", 3)`, "violations=0"},
		{"sqlite_upsert_rowid_safe", groundtruth.SQLite, "sqlite", passes,
			"passes WHERE uses > max_uses", `Issue(ctx, db, "ann", 3)`, "violations=0"},
		{"pg_upsert_serial_unsafe", groundtruth.Postgres, "postgres", passes,
			"passes WHERE uses > max_uses", `Issue(ctx, db, "ann", 3)`, "violations=1"},
	} {
		src := strings.NewReplacer("__SEED__", tc.seed, "__VIOLATED__", tc.violated, "__CALL__", tc.call).Replace(generatedKeyTruthTest)
		out := runTruthTest(t, mod, corpus, truthRun{dir: "dialect/" + tc.dir, engine: tc.engine, driver: tc.driver,
			src: src, test: "TestGeneratedKey"})
		if !strings.Contains(out, "GENERATED KEY "+tc.want) {
			t.Errorf("%s: want %s, got\n%s", tc.dir, tc.want, out)
		}
	}
}
