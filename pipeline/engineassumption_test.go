package pipeline

import (
	"context"
	"strings"
	"testing"
)

// TestEngineDefaultsAssumption: the assumption said beside every result
// of MySQL or SQLite SQL names what the row model takes from that engine.
// A SQLite result said it assumed MySQL's strict mode (sql_mode), which a
// SQLite engine does not have, and not what SQLite must keep: its CHECKs
// enforced (no PRAGMA ignore_check_constraints).
func TestEngineDefaultsAssumption(t *testing.T) {
	tests := []struct {
		dialect     string
		says, never []string
	}{
		{"sqlite", []string{"SQLite", "CHECK", "ignore_check_constraints", "type affinity"}, []string{"MySQL", "sql_mode", "STRICT_TRANS_TABLES"}},
		{"mysql", []string{"MySQL strict mode (STRICT_TRANS_TABLES)", "CHECK"}, []string{"SQLite", "ignore_check_constraints"}},
	}
	for _, tt := range tests {
		t.Run(tt.dialect, func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./errnileq"}, Constraints: []string{"accounts.balance >= 0"}, Dialect: Dialect(tt.dialect), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) == 0 {
				t.Fatal("no results")
			}
			for _, r := range rep.Results {
				var engine string
				for _, a := range r.Assumptions {
					if strings.Contains(a, "CHECK enforcement") || strings.Contains(a, "CHECK and NOT NULL") {
						engine = a
					}
				}
				for _, w := range tt.says {
					if !strings.Contains(engine, w) {
						t.Errorf("%s: the engine's assumption %q does not name %q (assumptions %q)", r.Entry, engine, w, r.Assumptions)
					}
				}
				for _, w := range tt.never {
					if strings.Contains(strings.Join(r.Assumptions, "\n"), w) {
						t.Errorf("%s: assumptions %q name %q, which is not %s's", r.Entry, r.Assumptions, w, tt.dialect)
					}
				}
			}
		})
	}
}
