package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestSQLiteTextCompare: SQLite applies numeric affinity to a bound TEXT
// in a comparison only when the other operand is a column of numeric
// affinity; against the literal 0 the TEXT '-5' sorts above every number,
// so "? > 0" lets "-5" through and "balance + ?" then subtracts 5 (UNSAFE;
// was SAFE, independent tester adv19 sqlite-text-compare), while "0 + ? >
// 0" converts the text first (SAFE).
func TestSQLiteTextCompare(t *testing.T) {
	checkCorpusPairs(t, "accounts.balance >= 0", 2, map[string]report.Verdict{
		"trust/sqlite_text_guard_safe":   report.Safe,
		"trust/sqlite_text_guard_unsafe": report.Unsafe,
	})
}

// TestSQLiteMaxWithoutAffinity: SQLite's scalar max compares a column
// with a bound text without the column's affinity (adv19's Clamp: SAFE
// before, a WRONG SAFE: max(balance, "-5") stores -5). The model does not
// order a text against a column's number, so the text case is UNKNOWN
// naming the comparison; an integer floor is compared as a number.
func TestSQLiteMaxWithoutAffinity(t *testing.T) {
	dir := testdataDir(t, "sqlitemax")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "sqlite",
		Schema: dir + "/schema.sql", Constraints: []string{"accounts.balance >= 0"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]report.Verdict{"ClampText": report.Unknown, "ClampInt": report.Safe}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(want))
	}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		if r.Verdict != want[name] {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, want[name])
		}
		if name == "ClampText" && !strings.Contains(r.Reason, "text-bound Go string") {
			t.Errorf("ClampText's reason %q does not name the comparison", r.Reason)
		}
	}
}
