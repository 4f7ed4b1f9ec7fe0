package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConstantFlagCutsBranch: a shared helper's statement the model does
// not support (ROLLBACK TO sent on the pool) sits on a branch its flag
// parameter guards. An entry passing the constant false never runs it
// and is decided (adversary adv15 mini/flagpool: Pay was UNKNOWN, truth
// SAFE); one passing true, or a flag of its own, stays UNKNOWN naming
// the statement.
func TestConstantFlagCutsBranch(t *testing.T) {
	want := map[string]report.Verdict{
		"Pay":          report.Safe,
		"PayNotLegacy": report.Safe,
		"PayLegacy":    report.Unknown,
		"PayEither":    report.Unknown,
	}
	dir := testdataDir(t, "deadflag")
	cfg := Config{Dir: dir, Patterns: []string{"./flagpool"}, Dialect: "postgres", Schema: dir + "/schema.sql",
		Workers: 1, Constraints: []string{"cards.gift >= 0"}}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := want[name]
		if !ok {
			continue
		}
		seen++
		if r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason, w)
		}
		if w == report.Unknown && !strings.Contains(r.Reason, "ROLLBACK TO sent as SQL on a connection pool") {
			t.Errorf("%s: reason %q does not name the pool's ROLLBACK TO", r.Entry, r.Reason)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d entries checked", seen, len(want))
	}
}
