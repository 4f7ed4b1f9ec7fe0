package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestInsertSelectOwnKey: INSERT … SELECT of a table from itself that
// gives the new row its source row's key fails (a duplicate key), also
// where the source row is none the model tracks: no counterexample
// inserts it (a false UNSAFE the engine never runs).
func TestInsertSelectOwnKey(t *testing.T) {
	wants := map[string]report.Verdict{
		"Rebate": report.Safe,
		"Copy":   report.Unsafe,
	}
	dir := testdataDir(t, "insertselectkey")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres", Schema: filepath.Join(dir, "schema.sql"),
		Constraints: []string{"wallets.balance >= 0"}, Workers: 1}
	checkVerdicts(t, cfg, wants)
}
