package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentAdvisoryHashText: pg_advisory_xact_lock(hashtext($1)) is
// a lock on the text's hash (adv19 pgadvisory: UNKNOWN "calls hashtext,
// which may read or write any table", hiding a race PostgreSQL 15 ran 142
// times in 300). Withdraw and Pay lock different texts: each is UNSAFE
// with the other (a withdrawal and a payment debit one balance together).
// A key built in Go as "wallet:" + strconv.FormatInt(id, 10) is exact:
// two withdrawals of one account exclude each other (SAFE). A key built
// from a text the model does not compute ("wallet:" + owner) gives
// UNKNOWN naming the concatenation, never an UNSAFE that needs two such
// keys to differ (it gave one, printing hashtext('3') and hashtext('2')
// for two keys "wallet:1").
func TestConcurrentAdvisoryHashText(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches two requests")
	}
	src := testdataDir(t, "concurrent")
	run := func(pkg string) []*report.Result {
		t.Helper()
		rep, err := runShared(context.Background(), Config{Dir: src, Patterns: []string{pkg}, Dialect: "postgres",
			Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Results
	}
	results := run("./hashtext")
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		other := "Pay"
		if strings.HasSuffix(r.Entry, ".Pay") {
			other = "Withdraw"
		}
		checkConcurrentResult(t, r, report.Unsafe, "search", other, "", "")
	}
	results = run("./hashtext/concat")
	if len(results) != 1 || results[0].Verdict != report.Safe {
		t.Fatalf("concat: %+v, want one SAFE", results)
	}
	results = run("./hashtext/opaque")
	if len(results) != 1 {
		t.Fatalf("opaque: %d results, want 1", len(results))
	}
	if r := results[0]; r.Verdict != report.Unknown || !strings.Contains(r.Reason, "concatenation of strings at hashtext/opaque/opaque.go:26") {
		t.Errorf("opaque: %s (%s), want UNKNOWN naming the concatenation", r.Verdict, r.Reason)
	}
}
