package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestOmittedRequiredColumn: an INSERT whose column list leaves out a NOT
// NULL column without a DEFAULT fails on every engine (MariaDB 1364,
// PostgreSQL 23502), so a negative price it would copy or take is never
// stored (SAFE; was UNSAFE with "rowsAffected = 1", independent tester
// adv19 notnull-nodefault), while the same INSERTs naming the column
// succeed (UNSAFE).
func TestOmittedRequiredColumn(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
	}{
		{"trust/notnull_omitted_safe", report.Safe},
		{"trust/notnull_omitted_unsafe", report.Unsafe},
	} {
		dir := corpusCase(tt.dir)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
			Constraints: []string{"order_lines.unit_price >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 2 {
			t.Fatalf("%s: %d results, want 2", tt.dir, len(rep.Results))
		}
		for _, r := range rep.Results {
			if r.Verdict != tt.want {
				t.Errorf("%s: %s is %s (%s), want %s", tt.dir, r.Entry, r.Verdict, r.Reason, tt.want)
			}
		}
	}
}
