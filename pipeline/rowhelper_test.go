package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestRowHelperTx (independent tester adv18 m1-rowhelper): a pgx
// repository reads and writes through helpers that use r.tx when it is
// set, else the pool. Withdraw, which refuses a balance that does not
// cover the amount, was a false UNSAFE whose counterexample took
// `r.tx != nil` true in row() and false in exec() and scanned an
// "outside" balance: the helper's pgx.Row, returned from two handles,
// was lost. The guarded Withdraw is SAFE; the one that only refuses an
// overdrawn account is UNSAFE with a counterexample that reads the row
// (no outside value). In a loop, where the helper's rows are not
// followed, the Scan is UNKNOWN naming it (it was UNSAFE on an outside
// balance too).
func TestRowHelperTx(t *testing.T) {
	run := func(name string) *report.Result {
		dir := corpusCase(name)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
			Constraints: []string{"wallets.balance >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", name, len(rep.Results))
		}
		return rep.Results[0]
	}
	if r := run("pg/rowhelper_tx_safe"); r.Verdict != report.Safe {
		t.Errorf("rowhelper_tx_safe: %s (%s), want SAFE", r.Verdict, r.Reason)
	}
	r := run("pg/rowhelper_tx_unsafe")
	if r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("rowhelper_tx_unsafe: %s (%s), want UNSAFE", r.Verdict, r.Reason)
	}
	if out := r.Counterexample.Outside; len(out) > 0 {
		t.Errorf("rowhelper_tx_unsafe: counterexample uses outside values %v, want the row's balance", out)

	}
	const lost = "unsupported: Scan on a github.com/jackc/pgx/v5.Row whose query the analysis cannot trace"
	if r := run("pg/rowhelper_loop_safe"); r.Verdict != report.Unknown || !strings.Contains(r.Reason, lost) || !strings.Contains(r.Reason, "repo.go:49") {
		t.Errorf("rowhelper_loop_safe: %s (%s), want UNKNOWN naming the Scan at repo.go:49", r.Verdict, r.Reason)
	}
}
