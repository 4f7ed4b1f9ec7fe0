package groundtruth_test

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestEngineRoundTrip starts each engine, creates two databases, a table,
// inserts rows and reads them back sorted and normalised.
func TestEngineRoundTrip(t *testing.T) {
	for _, d := range groundtruth.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			e := engines.get(t, d)
			ctx := context.Background()
			db, name, err := e.NewDatabase(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db2, name2, err := e.NewDatabase(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			if name == name2 {
				t.Fatalf("two databases named %s", name)
			}
			if err := groundtruth.ExecAll(ctx, db, "CREATE TABLE t (id INT PRIMARY KEY, v INT, d DECIMAL(10,2), s VARCHAR(10))"); err != nil {
				t.Fatal(err)
			}
			err = groundtruth.InsertRows(ctx, db, d, "t",
				groundtruth.Row{"id": 2, "v": nil, "d": "1.50", "s": "b"},
				groundtruth.Row{"id": 1, "v": -3, "d": "2.00", "s": "a"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := groundtruth.ReadTable(ctx, db, "t")
			if err != nil {
				t.Fatal(err)
			}
			want := groundtruth.Table{
				Columns: []string{"id", "v", "d", "s"},
				Rows:    [][]any{{int64(1), int64(-3), int64(2), "a"}, {int64(2), nil, ratOf("3/2"), "b"}},
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || !reflect.DeepEqual(got.Columns, want.Columns) {
				t.Errorf("ReadTable = %v, want %v", got, want)
			}
			// The second database is separate: it has no table t.
			if _, err := groundtruth.ReadTable(ctx, db2, "t"); err == nil {
				t.Errorf("database %s sees the table of database %s", name2, name)
			}
		})
	}
}

// TestStartForTestStopsTheServer: the server StartForTest started is gone
// once the test that started it has ended.
func TestStartForTestStopsTheServer(t *testing.T) {
	var driver, dsn string
	t.Run("start", func(t *testing.T) {
		e := groundtruth.StartForTest(t, groundtruth.Postgres)
		driver, dsn = e.DriverName(), e.DSN("postgres")
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Ping(); err != nil {
			t.Fatalf("the engine does not answer while the test runs: %v", err)
		}
	})
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err == nil {
		t.Errorf("the postgres server still answers at %s after its test ended", dsn)
	}
}

// TestCasesAreDeterministic: a seed gives the same cases every run.
func TestCasesAreDeterministic(t *testing.T) {
	for _, f := range forms {
		for _, d := range groundtruth.Dialects() {
			a, b := newCase(f, d, 42, 3), newCase(f, d, 42, 3)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("%s/%s: seed 42 gives %v, then %v", f.name, d, a, b)
			}
		}
	}
}
