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
	checkCorpusPairs(t, "order_lines.unit_price >= 0", 2, map[string]report.Verdict{
		"trust/notnull_omitted_safe":   report.Safe,
		"trust/notnull_omitted_unsafe": report.Unsafe,
	})
}

// checkCorpusPairs checks each corpus case of want (its schema.sql, all
// packages) against constraint: it must give n results, each of the
// case's verdict.
func checkCorpusPairs(t *testing.T, constraint string, n int, want map[string]report.Verdict) {
	t.Helper()
	checkCorpusPairsAssuming(t, constraint, nil, n, want)
}

// checkCorpusPairsAssuming is checkCorpusPairs with the --assume facts
// assume.
func checkCorpusPairsAssuming(t *testing.T, constraint string, assume []string, n int, want map[string]report.Verdict) {
	t.Helper()
	for name, verdict := range want {
		dir := corpusCase(name)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
			Constraints: []string{constraint}, Assume: assume, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != n {
			t.Fatalf("%s: %d results, want %d", name, len(rep.Results), n)
		}
		for _, r := range rep.Results {
			if r.Verdict != verdict {
				t.Errorf("%s: %s is %s (%s), want %s", name, r.Entry, r.Verdict, r.Reason, verdict)
			}
		}
	}
}
