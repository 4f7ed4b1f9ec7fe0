package benchmarks_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadableTracesRound17 runs the built binary on the programs of
// testdata/readable/round17 and checks the text report (issue 12, round
// 17):
//
//   - a time.Time parameter bound directly to a statement prints in the
//     SQL as a timestamp literal, never as its placeholder ($2);
//   - with a schema, a TIMESTAMP column's value prints as the timestamp
//     the SQL binds ('2024-01-04 00:00:00'), the same in the rows, the
//     steps and the violation; without one, a column compared with a
//     time.Time prints as a timestamp too, never as the model's number;
//   - an INSERT … ON CONFLICT DO NOTHING that inserted the violating row
//     counts it: rowsAffected = 1, never 0;
//   - a gin path parameter compared with a column (MySQL, no schema)
//     prints as one quoted string everywhere: the request's value, the
//     rows, the bound SQL and the violation (the rows printed code = 2
//     beside the request's "2").
func TestReadableTracesRound17(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round17", "schema.sql")
	runs := [][]string{
		{"--schema", schema, "-c", "subscriptions.credits >= 0", "-c", "accounts.balance >= 0", "./round17/timeparam", "./round17/timecol", "./round17/upsertcount"},
		{"-c", "subscriptions.credits >= 0", "./round17/timecol"},
		{"-c", "coupons.remaining >= 0", "./round17/ginparam"},
	}
	all, _ := readableReports(t, dir, runs)
	checkStepLines(t, all)
	checkAligned(t, all)
	block := func(entry string) string { return readableBlock(all, "round17/"+entry) }
	// (timecol.ChargeDue is checked twice: its first block is the run
	// with the schema, the second the run without.)
	_, noSchema, _ := strings.Cut(all, "round17/timecol.ChargeDue")
	if b := readableBlock(noSchema, "round17/timecol.ChargeDue"); !regexp.MustCompile(`\n  row r +subscriptions: .*renews_at = "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"\n`).MatchString(b) {
		t.Errorf("timecol.ChargeDue without a schema: want renews_at printed as a timestamp in:\n%s", b)
	}
	n := `\(?-?\d+\)?`
	ts := `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`
	checkBlockWants(t, all, block, []blockWant{
		{entry: "timeparam.Extend", want: `timeparam\.go:17 +sql +UPDATE subscriptions SET credits = credits - ` + n + `, renews_at = '` + ts + `' WHERE id = ` + n + ` `},
		{entry: "timeparam.Extend", want: `\$\d`, absent: true},
		{entry: "timecol.ChargeDue", want: `timecol\.go:18 +sql +UPDATE subscriptions SET credits = credits - ` + n + ` WHERE id = ` + n + ` AND renews_at < '` + ts + `' `},
		{entry: "timecol.ChargeDue", want: `\$\d`, absent: true},
		{entry: "timecol.ChargeDue", want: `\n  row r +subscriptions: .*renews_at = "` + ts + `"\n`},
		{entry: "upsertcount.Open", want: `upsertcount\.go:14 +sql +INSERT INTO accounts .* ON CONFLICT \(id\) DO NOTHING +⇒ .*rowsAffected = 1\b`},
		{entry: "upsertcount.Seed", want: `upsertcount\.go:30 +sql +INSERT INTO accounts .* ON CONFLICT DO NOTHING +⇒ .*rowsAffected = 1\b`},
	})
	checkParamQuoted(t, block("ginparam.(*Handler).redeem"))
	// The timestamp the UPDATE binds is the value the step and the
	// violation print for the column.
	b := block("timeparam.Extend")
	m := regexp.MustCompile(`renews_at = '(` + ts + `)'`).FindStringSubmatch(b)
	if m == nil {
		return
	}
	for _, want := range []string{`r.renews_at = "` + m[1] + `"`, `violation: subscriptions row .*renews_at = "` + regexp.QuoteMeta(m[1]) + `"`} {
		if !regexp.MustCompile(strings.ReplaceAll(want, `r.renews`, `r\.renews`)).MatchString(b) {
			t.Errorf("timeparam.Extend: want %s (the value the UPDATE binds) in:\n%s", want, b)
		}
	}
}

// checkParamQuoted checks that the path parameter of ginparam's
// counterexample is printed as the same quoted string wherever the
// coupon's code appears.
func checkParamQuoted(t *testing.T, b string) {
	t.Helper()
	m := regexp.MustCompile(`path parameter "code" = "([^" ]+)"`).FindStringSubmatch(b)
	if m == nil {
		t.Errorf("ginparam: no quoted path parameter in:\n%s", b)
		return
	}
	q := regexp.QuoteMeta(m[1])
	for _, want := range []string{
		`\n  row r +coupons: code = "` + q + `", remaining = `,
		`WHERE code = '` + q + `' `,
		`\n  violation: coupons row code = "` + q + `", remaining = -`,
	} {
		if !regexp.MustCompile(want).MatchString(b) {
			t.Errorf("ginparam: want %s (the request's %q) in:\n%s", want, m[1], b)
		}
	}
}
