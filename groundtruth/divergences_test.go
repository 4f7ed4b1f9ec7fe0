package groundtruth_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// knownDivergence is a disagreement between an engine and the model that
// is known and routed: a model bug or limit (issue 8's defect classes).
type knownDivergence struct {
	dialect groundtruth.Dialect
	forms   []string // the forms it shows in (nil: any)
	// cause is "affected" (the divergence goes away when RowsAffected is
	// not observed) or "values" (rows or returned values).
	cause string
	// needsNull: it shows only when some initial row has a NULL.
	needsNull bool
	// noSchema: it shows only when the model runs without the schema.
	noSchema bool
	class    string // issue 8 defect class
	why      string
	repro    stmtCase // a minimal reproduction: it must still diverge
}

// row builds a row of the test table; nil is NULL.
func row(id int64, k any, a int64, b any) groundtruth.Row {
	return groundtruth.Row{"id": id, "k": k, "a": a, "b": b}
}

// nullWhere returns the divergence of a WHERE under NOT over a NULL
// column, on dialect d.
func nullWhere(d groundtruth.Dialect) knownDivergence {
	return knownDivergence{
		dialect: d, forms: []string{"update-where", "delete-where", "select-by-key"}, cause: "values", needsNull: true,
		class: "SQL three-valued logic (NULL) in WHERE",
		why: "a nullable column is an arbitrary number in the model, so a condition true of every number " +
			"(NOT (b BETWEEN 3 AND 2), b <> 1 OR b = 1) holds for every row; on the engine it is NULL for b = NULL " +
			"and the row is not updated (the model forces the update)",
		repro: stmtCase{form: "update-where", dial: d, rows: []groundtruth.Row{row(3, nil, -2, nil)},
			steps: []step{{sql: "UPDATE acct SET a = a + ? WHERE NOT (b BETWEEN ? AND ?)", args: []int64{2, 3, 2}}}},
	}
}

// realIntoInt returns the divergence of a non-integer value stored in an
// INTEGER column on dialect d.
func realIntoInt(d groundtruth.Dialect) knownDivergence {
	return knownDivergence{
		dialect: d, forms: []string{"update-real-into-int"}, cause: "values",
		class: "5 (dialect semantics: a value stored in an INTEGER column is rounded)",
		why: "a = a * 1.5 with a = 3 stores 5 (4.5 rounded half away from zero); the model makes the column real " +
			"because a real literal is assigned to it (whatever its declared type) and keeps 4.5. " +
			"SQLite agrees with the model (INTEGER affinity keeps 4.5 as REAL)",
		repro: stmtCase{form: "update-real-into-int", dial: d, rows: []groundtruth.Row{row(1, nil, 3, nil)},
			steps: []step{{sql: "UPDATE acct SET a = a * 1.5 WHERE id = ?", args: []int64{1}}}},
	}
}

// replaceOtherKey returns the divergence of REPLACE conflicting on a
// unique key other than the primary key, on dialect d.
func replaceOtherKey(d groundtruth.Dialect) knownDivergence {
	return knownDivergence{
		dialect: d, forms: []string{"replace"}, cause: "values",
		class: "6 (keys: REPLACE deletes the row conflicting on any unique key)",
		why: "REPLACE INTO acct (id, k, a) VALUES (5, 1, -3) deletes the row with k = 1 (id 2) and inserts id 5; " +
			"the model keeps the row with k = 1 (it only replaces a row with the same primary key)",
		repro: stmtCase{form: "replace", dial: d, rows: []groundtruth.Row{row(2, 1, -1, 2)},
			steps: []step{{sql: "REPLACE INTO acct (id, k, a) VALUES (?, ?, ?)", args: []int64{5, 1, -3}}}},
	}
}

// knownDivergences lists every known divergence. The differential suite
// fails on a divergence not listed here, and on a listed one whose
// reproduction no longer diverges.
var knownDivergences = []knownDivergence{
	{
		dialect: groundtruth.MySQL, forms: []string{"insert-on-duplicate-key"}, cause: "values", noSchema: true,
		class: "6 (keys: without a schema, the inferred id is taken as the only unique key)",
		why: "without --schema the model assumes ON DUPLICATE KEY conflicts on id; the table has another UNIQUE key (k) " +
			"and MariaDB updates the row with k = 2 (id 1), which the model leaves unchanged",
		repro: stmtCase{form: "insert-on-duplicate-key", dial: groundtruth.MySQL, noSchema: true, rows: []groundtruth.Row{row(1, 2, 0, nil)},
			steps: []step{{sql: "INSERT INTO acct (id, k, a) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE a = a + 1", args: []int64{3, 2, 5}}}},
	},
	realIntoInt(groundtruth.Postgres),
	realIntoInt(groundtruth.MySQL),
	replaceOtherKey(groundtruth.SQLite),
	replaceOtherKey(groundtruth.MySQL),
	nullWhere(groundtruth.SQLite),
	nullWhere(groundtruth.Postgres),
	nullWhere(groundtruth.MySQL),
}

// findKnown returns the listed divergence dv matches, or nil.
func findKnown(dv *divergence) *knownDivergence {
	for i := range knownDivergences {
		k := &knownDivergences[i]
		if k.dialect != dv.dialect || k.cause != dv.cause || (k.needsNull && !dv.hasNull) || (k.noSchema && !dv.c.noSchema) {
			continue
		}
		if k.forms == nil {
			return k
		}
		for _, f := range k.forms {
			if f == dv.form {
				return k
			}
		}
	}
	return nil
}

// TestKnownDivergences replays each known divergence's reproduction: it
// must still diverge, in the way listed (else the entry is stale and must
// go, or the model changed and the entry must be updated).
func TestKnownDivergences(t *testing.T) {
	ctx := context.Background()
	for _, d := range groundtruth.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			var mine []knownDivergence
			for _, k := range knownDivergences {
				if k.dialect == d {
					mine = append(mine, k)
				}
			}
			if len(mine) == 0 {
				return
			}
			db := tableDB(t, d)
			ck := newChecker(t)
			for _, k := range mine {
				er, err := runOnEngine(ctx, db, k.repro)
				if err != nil {
					t.Fatal(err)
				}
				dv, supported, err := ck.compare(k.repro, er)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case !supported:
					t.Errorf("known divergence (%s) no longer comparable: the model does not support %s", k.class, k.repro.text())
				case dv == nil:
					t.Errorf("known divergence (%s) no longer occurs: %s with rows %s agrees with the model; remove it from knownDivergences",
						k.class, k.repro.text(), formatRows(k.repro.rows))
				case dv.cause != k.cause:
					t.Errorf("known divergence (%s) now diverges differently: %s", k.class, dv)
				default:
					t.Logf("%s: %s", k.class, dv)
				}
			}
		})
	}
}

// tableDB returns a fresh database of d's shared engine with the test
// table.
func tableDB(t *testing.T, d groundtruth.Dialect) *sql.DB {
	t.Helper()
	ctx := context.Background()
	db, _, err := engines.get(t, d).NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if err := groundtruth.ExecAll(ctx, db, ddl); err != nil {
		t.Fatal(err)
	}
	return db
}
