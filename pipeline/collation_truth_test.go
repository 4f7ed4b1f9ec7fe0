package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/refine"
)

// collationCase is a program that tells two keys apart in Go (a != b)
// before writing both rows, run against a key that the engine may
// compare otherwise.
type collationCase struct {
	name, dir, pkg, schema string
	dialect                groundtruth.Dialect
	constraint             string
	// a and b are the entry's two key inputs; table.key the key column.
	a, b, table, key string
	want             refine.Verdict
}

// TestCollationKeysGroundTruth: a key the engine compares otherwise than
// Go (MySQL's default case-insensitive PAD SPACE collation, utf8mb4_bin's
// PAD SPACE, SQLite COLLATE NOCASE, PostgreSQL CHAR(n), a Go string bound
// to a BIGINT) makes the program UNSAFE, and the counterexample's two
// keys are Go-distinct texts that the real engine takes for one row: a
// row inserted with one is found by the other. With a key compared byte
// for byte the same program is SAFE.
func TestCollationKeysGroundTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	const escrow = "traders.reserved <= traders.credit"
	corpus := func(c string) (string, string) {
		return corpusCase("dialect/" + c), filepath.Join(corpusCase("dialect/"+c), "schema.sql")
	}
	var cases []collationCase
	for _, c := range []struct {
		dir string
		d   groundtruth.Dialect
		v   refine.Verdict
	}{
		{"mysql_escrow_ci_unsafe", groundtruth.MySQL, refine.Unsafe},
		{"mysql_escrow_bin_unsafe", groundtruth.MySQL, refine.Unsafe},
		{"mysql_escrow_nopad_safe", groundtruth.MySQL, refine.Safe},
		{"sqlite_escrow_nocase_unsafe", groundtruth.SQLite, refine.Unsafe},
		{"sqlite_escrow_binary_safe", groundtruth.SQLite, refine.Safe},
		{"pg_escrow_char_unsafe", groundtruth.Postgres, refine.Unsafe},
		{"pg_escrow_text_safe", groundtruth.Postgres, refine.Safe},
	} {
		dir, schema := corpus(c.dir)
		cases = append(cases, collationCase{c.dir, dir, "./...", schema, c.d, escrow, "buyer", "seller", "traders", "handle", c.v})
	}
	cases = append(cases, collationCase{"string ids bound to a BIGINT key", testdataDir(t, "src"), "./strids", testdataDir(t, "strids.sql"),
		groundtruth.Postgres, "members.pending <= members.points", "from", "to", "members", "id", refine.Unsafe})
	engines := map[groundtruth.Dialect]*groundtruth.Engine{}
	for _, d := range groundtruth.Dialects() {
		engines[d] = groundtruth.StartForTest(t, d)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{Dir: c.dir, Patterns: []string{c.pkg}, Dialect: Dialect(c.dialect),
				Constraints: []string{c.constraint}, Schema: c.schema, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Verdict != c.want {
				t.Fatalf("got %+v, want one %s", rep.Results, c.want)
			}
			if c.want != refine.Unsafe {
				return
			}
			in := map[string]string{}
			for _, b := range rep.Results[0].Counterexample.Inputs {
				in[b.Name] = b.Value
			}
			a, b := inputText(in[c.a]), inputText(in[c.b])
			if a == b {
				t.Fatalf("the counterexample's keys %q and %q are one Go string", a, b)
			}
			if n := rowsFoundByOtherKey(t, engines[c.dialect], c, a, b); n != 1 {
				t.Errorf("on %s a row inserted with %s = %q is found %d times by %q, want once (one key)", c.dialect, c.key, b, n, a)
			}
		})
	}
}

// inputText is the Go string a counterexample's input stands for: a
// quoted text, or a symbolic name (str1) standing for itself.
func inputText(v string) string {
	if s, err := strconv.Unquote(v); err == nil {
		return s
	}
	return v
}

// rowsFoundByOtherKey creates c's schema in a new database of e, inserts
// a row whose key is b and counts the rows a WHERE key = a finds.
func rowsFoundByOtherKey(t *testing.T, e *groundtruth.Engine, c collationCase, a, b string) int {
	t.Helper()
	ctx := context.Background()
	db, _, err := e.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ddl, err := os.ReadFile(c.schema)
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, s := range strings.Split(string(ddl), ";") {
		if strings.Contains(s, "CREATE") {
			stmts = append(stmts, s)
		}
	}
	if err := groundtruth.ExecAll(ctx, db, stmts...); err != nil {
		t.Fatal(err)
	}
	ph := c.dialect.Placeholder(1)
	cols := "credit, reserved"
	if c.table == "members" {
		cols = "points, pending"
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO "+c.table+" ("+c.key+", "+cols+") VALUES ("+ph+", 0, 0)", b); err != nil {
		t.Fatalf("insert %q: %v", b, err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+c.table+" WHERE "+c.key+" = "+ph, a).Scan(&n); err != nil {
		t.Fatalf("select %q: %v", a, err)
	}
	return n
}
