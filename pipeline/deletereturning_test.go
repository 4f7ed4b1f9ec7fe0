package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestDeleteReturningRow: the values DELETE … RETURNING scans are the
// deleted row's, which satisfied its table's CHECK (holds.amount > 0) and,
// on the constrained table, the constraint (a wallet's balance >= 0): a
// hold released back to its wallet and a wallet merged into another keep
// balance >= 0 (SAFE; both were UNSAFE with a returned -1, independent
// tester adv16 fu1), while debiting the released amount still breaks it.
func TestDeleteReturningRow(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
		n    int
	}{
		{"trust/delete_returning_safe", report.Safe, 2},
		{"trust/delete_returning_unsafe", report.Unsafe, 1},
	} {
		dir := corpusCase(tt.dir)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "postgres",
			Constraints: []string{"wallets.balance >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != tt.n {
			t.Fatalf("%s: got %d results, want %d", tt.dir, len(rep.Results), tt.n)
		}
		for _, r := range rep.Results {
			if r.Verdict != tt.want {
				t.Errorf("%s: %s is %s (%s), want %s", tt.dir, r.Entry, r.Verdict, r.Reason, tt.want)
			}
		}
	}
}
