package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestReturningCTE: WITH d AS (UPDATE … RETURNING balance) SELECT
// balance FROM d is the UPDATE … RETURNING balance (adv16
// ledgercte: UNKNOWN "data-modifying statement in WITH").
func TestReturningCTE(t *testing.T) {
	wants := map[string]report.Verdict{
		"Debit":        report.Safe,
		"DebitWithFee": report.Unsafe,
	}
	dir := testdataDir(t, "ctewrite")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres", Schema: filepath.Join(dir, "schema.sql"),
		Constraints: []string{"wallets.balance >= 0"}, Workers: 1}
	checkVerdicts(t, cfg, wants)
}
