package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReadableTracesRound16 runs the built binary on the programs of
// testdata/readable/round16 and checks the text report (issue 12, round
// 16):
//
//   - a time.Time bound to a statement (time.Now().Add(…)) prints in the
//     SQL as a timestamp literal, not as the model's number;
//   - the results of strconv.ParseInt on the inputs line are named as the
//     source writes the call (strconv.ParseInt(qtyText, 10, 64) = …), its
//     error beside the value, never ParseInt(…).0 / .1;
//   - `var stock int64` before the Scan that fills it prints no step;
//   - a deferred tx.Rollback() after a Commit is said to be a no-op, never
//     printed as a bare ROLLBACK after the COMMIT;
//   - an UPDATE … FROM is one SQL step with its bound values (not the
//     read of the joined row, then the UPDATE with its placeholders), and
//     the joined row's TEXT key is printed quoted (adv12 p11).
func TestReadableTracesRound16(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round16", "schema.sql")
	runs := [][]string{
		{"--schema", schema, "-c", "subscriptions.credits >= 0", "-c", "items.stock >= 0", "-c", "wallets.balance >= 0", "./round16/dates", "./round16/parsed", "./round16/joined"},
		{"--schema", schema, "--concurrent", "-c", "accounts.balance >= 0", "./round16/txdefer"},
	}
	all, _ := readableReports(t, dir, runs)
	checkStepLines(t, all)
	checkAligned(t, all)
	block := func(entry string) string { return readableBlock(all, "round16/"+entry) }
	checkBlockWants(t, all, block, []blockWant{
		{entry: "dates.Renew", want: `dates\.go:20 +sql +UPDATE subscriptions SET credits = credits - \(?-?\d+\)?, renews_at = '\d{4}-\d\d-\d\d \d\d:\d\d:\d\d' WHERE id = `},
		{entry: "dates.Renew", want: `renews_at = \(?-?\d+\)? WHERE`, absent: true},
		{entry: "parsed.Take", want: `\n  inputs: .*strconv\.ParseInt\(qtyText, 10, 64\) = -?\d+( \(and a non-nil error\))?(,|\n)`},
		{entry: "parsed.Take", want: `\)\.[01] =`, absent: true},
		{entry: "parsed.Take", want: `var stock int64`, absent: true},
		{entry: "txdefer.Withdraw", want: `var bal int64`, absent: true},
		{entry: "txdefer.Withdraw", want: `COMMIT[^\n]*\n +A \S+ +sql +ROLLBACK`, absent: true},
		{entry: "joined.Buy", want: `joined\.go:22 +sql +UPDATE wallets w SET balance = w\.balance - p\.price \* \d+ FROM prices p WHERE p\.sku = '[^']*' AND w\.id = \(?-?\d+\)? AND`},
		{entry: "joined.Buy", want: `its row of|\$\d`, absent: true},
		{entry: "joined.Buy", want: `\n  row o1 +prices: price = \d+, sku = "[^"]*"\n`},
	})
	if b := block("txdefer.Withdraw"); strings.Count(b, "sql    (deferred Rollback after Commit: no-op)") > 2 || strings.Count(b, " COMMIT ") < 2 {
		t.Errorf("txdefer.Withdraw: want each request's COMMIT, each deferred Rollback said to be a no-op:\n%s", b)
	}
}
