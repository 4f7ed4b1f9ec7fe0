package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestReadOnlyTransaction: PostgreSQL and MariaDB refuse every write of
// a transaction begun with sql.TxOptions{ReadOnly: true} (adversary adv15
// mini/readonlytx, a false UNSAFE: the UPDATE was taken to succeed and
// commit); modernc.org/sqlite ignores the option
// (groundtruth.TestReadOnlyTransactions), so there the write commits.
// A ReadOnly the code does not set to a constant, a transaction that is
// not read-only and a write outside it stay UNSAFE.
func TestReadOnlyTransaction(t *testing.T) {
	tests := []struct {
		pkg, dialect string
		want         report.Verdict
	}{
		{"ro", "postgres", report.Safe},
		{"romysql", "mysql", report.Safe},
		{"ro", "sqlite", report.Unsafe},
		{"param", "postgres", report.Safe},
		{"rw", "postgres", report.Unsafe},
		{"flag", "postgres", report.Unsafe},
		{"outside", "postgres", report.Unsafe},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.dialect, func(t *testing.T) {
			dir := testdataDir(t, "readonly")
			cfg := Config{Dir: dir, Patterns: []string{"./" + tt.pkg}, Dialect: Dialect(tt.dialect), Schema: dir + "/schema.sql",
				Workers: 1, Constraints: []string{"accounts.balance >= 0"}}
			rep, err := Run(context.Background(), cfg)
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
