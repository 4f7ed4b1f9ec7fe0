package pipeline

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConnHolderCallsUnknown: SQL run through a library type that holds
// a database connection the front end does not model — GORM's *gorm.DB,
// pgx's low-level *pgconn.PgConn — makes the entry UNKNOWN naming the
// call and its file:line, and the function is a possible writer of the
// constrained table ("writes ?"). Before, independent tester adv20 got
// SAFE "no path of the program reaches a violation check" for each with
// --entry, and a default run that listed only the database/sql writer
// (m4gormVacuousSafe, m16pgconnVacuousSafe; on PostgreSQL each takes a
// balance of 2 below zero). The same through a method value (save :=
// g.Save; save(w)) was SAFE and no writer before. pgconn's PID runs no
// SQL: no writer.
func TestConnHolderCallsUnknown(t *testing.T) {
	tests := []struct {
		pkg     string
		entry   string
		writers map[string]string
		want    map[string]string // entry -> what its UNKNOWN reason names ("" for SAFE)
	}{
		{"gormw", "", map[string]string{"Deposit": "wallets", "Penalty": "?", "Adjust": "?", "Credit": "?"},
			map[string]string{"Deposit": "", "Penalty": "(*gorm.DB).Model runs SQL dbverify does not read: a *gorm.DB holds a database connection the analysis does not model at gormw/gormw.go:30", "Adjust": "(*gorm.DB).First runs SQL dbverify does not read: a *gorm.DB holds a database connection the analysis does not model at gormw/gormw.go:36",
				"Credit": "(*gorm.DB).Save runs SQL dbverify does not read: a *gorm.DB holds a database connection the analysis does not model at gormw/gormw.go:46"}},
		{"gormw", "Penalty", nil, map[string]string{"Penalty": "(*gorm.DB).Model runs SQL dbverify does not read: a *gorm.DB holds a database connection the analysis does not model at gormw/gormw.go:30"}},
		{"gormonly", "", map[string]string{"Open": "?", "Withdraw": "?"},
			map[string]string{"Open": "postgres.New runs SQL dbverify does not read: a postgres.Config holds a database connection", "Withdraw": "(*gorm.DB).Model runs SQL"}},
		{"pgconnw", "", map[string]string{"Deposit": "wallets", "ApplyFee": "?", "ApplyFeeParams": "?"},
			map[string]string{"Deposit": "", "ApplyFee": "(*pgconn.PgConn).Exec runs SQL dbverify does not read: a *pgconn.PgConn holds a database connection the analysis does not model at pgconnw/pgconnw.go:28", "ApplyFeeParams": "(*pgconn.PgConn).ExecParams runs SQL dbverify does not read: a *pgconn.PgConn holds a database connection the analysis does not model at pgconnw/pgconnw.go:39"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.entry, func(t *testing.T) {
			rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "connholder"), Patterns: []string{"./" + tt.pkg}, Entry: tt.entry,
				Schema: testdataDir(t, "connholder/schema.sql"), Constraints: []string{"wallets.balance >= 0"}, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			prefix := "example.com/connholder/" + tt.pkg + "."
			if tt.writers != nil {
				writes := map[string]string{}
				for _, c := range rep.Coverage {
					writes[strings.TrimPrefix(c.Writer, prefix)] = strings.Join(c.Tables, ",")
				}
				if !maps.Equal(writes, tt.writers) {
					t.Errorf("coverage: writers %v, want %v", writes, tt.writers)
				}
			}
			got := map[string]bool{}
			for _, r := range rep.Results {
				name := strings.TrimPrefix(r.Entry, prefix)
				got[name] = true
				want, ok := tt.want[name]
				switch {
				case !ok:
					t.Errorf("unexpected entry %s: %s", name, r.Verdict)
				case want == "" && r.Verdict != report.Safe:
					t.Errorf("%s: %s (%s), want SAFE", name, r.Verdict, r.Reason)
				case want != "" && (r.Verdict != report.Unknown || !strings.Contains(r.Reason, want)):
					t.Errorf("%s: %s (%s), want UNKNOWN naming %q", name, r.Verdict, r.Reason, want)
				}
			}
			for name := range tt.want {
				if !got[name] {
					t.Errorf("no result for %s", name)
				}
			}
		})
	}
}
