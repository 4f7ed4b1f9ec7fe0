package benchmarks_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadableTracesRound20 runs the built binary on the programs of
// testdata/readable/round20 and checks the text report (issue 12, round
// 20):
//
//   - a fiber v2 handler's c.Params("id") and c.Query("plan") are the
//     request's path and query parameters, named on the inputs line,
//     never "outside: Params() = …" with "inputs: (none the path depends
//     on)";
//   - a callee the path reads at two call sites (os.Getenv, then
//     strconv.ParseInt, twice) is listed at each, named by the call as
//     written and its line, never once as `strconv.ParseInt() = 38`;
//   - a UUID column's values, and a Go string passed to uuid.Parse, print
//     as UUID literals (user_id = "00000000-0000-4000-8000-000000000002"),
//     never as the model's code (user_id = "2", refused by PostgreSQL)
//     nor as a timestamp another column made of the same code (userID =
//     "2024-01-01 00:00:00", adv19's payment-system); the string bound to
//     the column prints as the row's UUID;
//   - the engine semantics a SQL step relies on are noted on it: MySQL's
//     exact / stored rounded into an INT column (credits - 14 / 5 from 2
//     stores -1), SQLite's TEXT above every number ('-1' > 0 holds).
func TestReadableTracesRound20(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round20", "schema.sql")
	runs := [][]string{
		{"--schema", schema, "-c", "accounts.credits >= 0", "./round20/fiberplans", "./round20/outsidecalls"},
		{"--schema", schema, "-c", "accounts.credits >= 0", "./round20/splitbill"},
		{"--schema", schema, "-c", "accounts.credits >= 0", "./round20/textguard"},
	}
	all, _ := readableReports(t, dir, runs)
	checkStepLines(t, all)
	// (Reserve binds a uuid.UUID, a [16]byte the trace does not print:
	// its step keeps $2, so the step check is not run on it.)
	uuids, _ := readableReports(t, dir, [][]string{{"--schema", filepath.Join("round20", "uuidkey", "schema.sql"), "-c", "balance.reserved >= 0", "./round20/uuidkey"}})
	all += uuids
	block := func(entry string) string { return readableBlock(all, "round20/"+entry) }
	q := `"-?\d+"`
	uuid := `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
	checkBlockWants(t, all, block, []blockWant{
		{entry: "fiberplans.(*App).upgrade", want: `\n  inputs: +path parameter "id" = ` + q + `.*, query parameter "plan" = ` + q + `.*, query parameter "quoted" = ` + q},
		{entry: "fiberplans.(*App).upgrade", want: `\n  outside:`, absent: true},
		{entry: "fiberplans.(*App).upgrade", want: `none the path depends on`, absent: true},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*os\.Getenv\("BASE_FEE"\) \(line 16\) = ` + q},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*os\.Getenv\("SURCHARGE"\) \(line 20\) = ` + q},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*strconv\.ParseInt\(os\.Getenv\("BASE_FEE"\), 10, 64\) \(line 16\) = -?\d+`},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*strconv\.ParseInt\(os\.Getenv\("SURCHARGE"\), 10, 64\) \(line 20\) = -?\d+`},
		{entry: "outsidecalls.Charge", want: `strconv\.ParseInt\(\) =`, absent: true},
		{entry: "splitbill.SplitBill", want: `split\.go:16 +sql +UPDATE accounts SET credits = credits - (\d+) / (\d+) .*\n +note +MySQL's / divides exactly: \d+ / \d+ = \d+\.\d{4}, and an integer column stores the result rounded half away from zero`},
		{entry: "textguard.Credit", want: `guard\.go:15 +sql +UPDATE accounts SET credits = credits \+ '-\d+' .*AND '-\d+' > 0 .*\n +note +SQLite compares the text '-\d+' with the number 0 without converting it: TEXT sorts above every number, so '-\d+' > 0 is true`},
		{entry: "uuidkey.Reserve", want: `\n  inputs: .*userID = "` + uuid + `"`},
		{entry: "uuidkey.Reserve", want: `\n  row r +balance: .*user_id = "` + uuid + `"`},
		{entry: "uuidkey.Reserve", want: `userID = "\d{4}-`, absent: true},
		{entry: "uuidkey.Release", want: `\n  inputs: .*userID = "(` + uuid + `)".*\n  row r +balance: .*user_id = "(` + uuid + `)"`},
		{entry: "uuidkey.Release", want: `WHERE user_id = '` + uuid + `'`},
		{entry: "uuidkey.Release", want: `user_id = "-?\d+"`, absent: true},
	})
	if strings.Count(all, "UNSAFE") < 6 {
		t.Errorf("want every entry UNSAFE:\n%s", all)
	}
	// The string bound to the UUID column is the row's UUID.
	m := regexp.MustCompile(`userID = "(` + uuid + `)"[\s\S]*user_id = "(` + uuid + `)"`).FindStringSubmatch(block("uuidkey.Release"))
	if m != nil && m[1] != m[2] {
		t.Errorf("uuidkey.Release: userID %s and the row's user_id %s differ", m[1], m[2])
	}
}
