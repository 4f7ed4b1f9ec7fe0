package pipeline

import (
	"context"
	"path/filepath"
	"strings"
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
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(wants) {
		t.Errorf("%d results, want %d", len(rep.Results), len(wants))
	}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := wants[name]
		if !ok {
			t.Errorf("unexpected entry %s", r.Entry)
			continue
		}
		if r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w)
		}
	}
}
