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
//     written and its line, never once as `strconv.ParseInt() = 38`.
func TestReadableTracesRound20(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round20", "schema.sql")
	runs := [][]string{
		{"--schema", schema, "-c", "accounts.credits >= 0", "./round20/fiberplans", "./round20/outsidecalls"},
	}
	all, _ := readableReports(t, dir, runs)
	checkStepLines(t, all)
	block := func(entry string) string { return readableBlock(all, "round20/"+entry) }
	q := `"-?\d+"`
	for _, tt := range []struct {
		entry, want string
		absent      bool
	}{
		{entry: "fiberplans.(*App).upgrade", want: `\n  inputs: +path parameter "id" = ` + q + `.*, query parameter "plan" = ` + q + `.*, query parameter "quoted" = ` + q},
		{entry: "fiberplans.(*App).upgrade", want: `\n  outside:`, absent: true},
		{entry: "fiberplans.(*App).upgrade", want: `none the path depends on`, absent: true},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*os\.Getenv\("BASE_FEE"\) \(line 16\) = ` + q},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*os\.Getenv\("SURCHARGE"\) \(line 20\) = ` + q},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*strconv\.ParseInt\(os\.Getenv\("BASE_FEE"\), 10, 64\) \(line 16\) = -?\d+`},
		{entry: "outsidecalls.Charge", want: `\n  outside: .*strconv\.ParseInt\(os\.Getenv\("SURCHARGE"\), 10, 64\) \(line 20\) = -?\d+`},
		{entry: "outsidecalls.Charge", want: `strconv\.ParseInt\(\) =`, absent: true},
	} {
		b := block(tt.entry)
		if b == "" {
			t.Errorf("%s: no result in:\n%s", tt.entry, all)
			continue
		}
		if found := regexp.MustCompile(tt.want).MatchString(b); found == tt.absent {
			t.Errorf("%s: %s matched %v (want %v) in:\n%s", tt.entry, tt.want, found, !tt.absent, b)
		}
	}
	if strings.Count(all, "UNSAFE") < 2 {
		t.Errorf("want both entries UNSAFE:\n%s", all)
	}
}
