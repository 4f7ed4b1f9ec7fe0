package pipeline

import (
	"context"
	"path/filepath"
	"strings"
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
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(wants) {
		t.Errorf("%d results, want %d", len(rep.Results), len(wants))
	}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := wants[name]
		if !ok {
			t.Errorf("unexpected entry %s", r.Entry)
			continue
		}
		if r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w)
		}
	}
}
