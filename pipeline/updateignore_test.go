package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestUpdateIgnore: MySQL's UPDATE IGNORE stores a NULL for a NOT NULL
// column as the implicit default 0 where a plain UPDATE fails in strict
// mode (groundtruth TestIgnoreWrites). testdata/updateignore sets points
// (>= 1) from a sql.NullInt64 it checks only when valid: plain is SAFE,
// ignore UNSAFE with a NULL (its counterexample replays on MariaDB).
// Before UPDATE IGNORE was read, ignore was UNKNOWN (a syntax error).
func TestUpdateIgnore(t *testing.T) {
	for _, tt := range []struct {
		pkg  string
		want report.Verdict
	}{{"plain", report.Safe}, {"ignore", report.Unsafe}} {
		t.Run(tt.pkg, func(t *testing.T) {
			dir := testdataDir(t, "updateignore")
			cfg := Config{Dir: dir, Patterns: []string{"./" + tt.pkg}, Dialect: "mysql", Schema: dir + "/schema.sql",
				Workers: 1, Constraints: []string{"wallets.points >= 1"}}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			if r := rep.Results[0]; r.Verdict != tt.want {
				t.Errorf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason, tt.want)
			}
		})
	}
}
