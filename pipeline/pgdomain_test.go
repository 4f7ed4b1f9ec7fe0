package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestPgDomainCheck: a column typed with a PostgreSQL domain carries the
// domain's CHECK: an amount of domain positive_amount (VALUE > 0)
// credited to a wallet keeps its balance >= 0 (SAFE; UNSAFE with
// amount = -1 before, independent tester adv16 fu5), debited it does not.
func TestPgDomainCheck(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
	}{
		{"trust/pg_domain_check_safe", report.Safe},
		{"trust/pg_domain_check_unsafe", report.Unsafe},
	} {
		dir := corpusCase(tt.dir)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "postgres",
			Constraints: []string{"wallets.balance >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict != tt.want {
			t.Fatalf("%s: got %+v, want one %s", tt.dir, rep.Results, tt.want)
		}
	}
}
