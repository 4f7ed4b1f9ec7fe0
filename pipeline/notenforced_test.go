package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCheckNotEnforced: a CHECK the schema declares NOT ENFORCED (MySQL
// 8.0.16+, PostgreSQL 18) is not assumed: Return's INSERT of a negative
// quantity succeeds and the stock drops. It was read as an enforced CHECK,
// which made the INSERT fail: a wrong SAFE. Switched back on by ALTER CHECK
// … ENFORCED, the CHECK makes Return SAFE again.
func TestCheckNotEnforced(t *testing.T) {
	const tables = "CREATE TABLE products (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL);\n" +
		"CREATE TABLE returns (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_id BIGINT NOT NULL, qty BIGINT NOT NULL,\n" +
		"  CONSTRAINT returns_qty_pos CHECK (qty > 0) NOT ENFORCED);\n"
	tests := []struct {
		name, ddl string
		want      report.Verdict
		warned    bool
	}{
		{"NOT ENFORCED", tables, report.Unsafe, true},
		{"ENFORCED again", tables + "ALTER TABLE returns ALTER CHECK returns_qty_pos ENFORCED;\n", report.Safe, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sch := filepath.Join(t.TempDir(), "schema.sql")
			if err := os.WriteFile(sch, []byte(tt.ddl), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./notenforced"}, Schema: sch,
				Dialect: "mysql", Constraints: []string{"products.stock >= 0"}, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want Return's", len(rep.Results))
			}
			if r := rep.Results[0]; r.Verdict != tt.want {
				t.Errorf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason+r.Proof, tt.want)
			}
			warned := strings.Contains(strings.Join(rep.Warnings, "\n"), "CHECK returns_qty_pos (qty > 0) is NOT ENFORCED: not assumed")
			if warned != tt.warned {
				t.Errorf("warnings %q: warned of the NOT ENFORCED check %v, want %v", rep.Warnings, warned, tt.warned)
			}
		})
	}
}
