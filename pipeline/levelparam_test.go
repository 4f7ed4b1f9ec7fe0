package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestIsolationLevelParam: the isolation level reaches BeginTx through a
// parameter of the helper that begins the transaction. A constant at the
// only call site is the transaction's level (adversary adv14 m1 and p13:
// UNKNOWN before, "options not written there", while the header claimed
// READ COMMITTED); a level chosen on a branch stays UNKNOWN, and the
// header says the level was assumed, not seen. The same through pgx's
// TxOptions passed by value, to BeginTx and to BeginTxFunc (corpus cases:
// BeginTxFunc's options were not looked at, the default was assumed
// without a word, and the SERIALIZABLE case was a false UNSAFE).
func TestIsolationLevelParam(t *testing.T) {
	tests := []struct {
		pkg     string // in testdata/concurrent, or concurrent/… of the corpus
		verdict report.Verdict
		scope   string // as checkConcurrentResult
		reason  string // UNKNOWN: part of the reason
		level   string // the header's level
		source  string // part of the header's source
	}{
		{"./levelparam", report.Safe, "serializable", "", Serializable, "set in the code at"},
		{"./levelparam/retry", report.Safe, "serializable", "", Serializable, "set in the code at"},
		{"./levelparam/rc", report.Unsafe, "search", "", ReadCommitted, "set in the code at"},
		{"./levelparam/branch", report.Unknown, "", "isolation options that are not written there", ReadCommitted, "not followed"},
		{"concurrent/pgx_withdraw_level_param_rr_safe", report.Safe, "bounded", "", RepeatableRead, "set in the code at"},
		{"concurrent/pgx_begintxfunc_level_param_serializable_safe", report.Safe, "serializable", "", Serializable, "set in the code at"},
		{"concurrent/pgx_begintxfunc_level_param_rc_unsafe", report.Unsafe, "search", "", ReadCommitted, "set in the code at"},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tt.pkg}, Dialect: "postgres",
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
			if !strings.HasPrefix(tt.pkg, "./") {
				cfg.Dir, cfg.Patterns, cfg.Schema = corpusCase(""), []string{"./" + tt.pkg}, filepath.Join(corpusCase(tt.pkg), "schema.sql")
			}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			checkConcurrentResult(t, r, tt.verdict, tt.scope, "Withdraw", "", tt.reason)
			if r.Isolation.Level != tt.level || !strings.Contains(r.Isolation.Source, tt.source) {
				t.Errorf("isolation %s (%s), want %s with %q", r.Isolation.Level, r.Isolation.Source, tt.level, tt.source)
			}
		})
	}
}
