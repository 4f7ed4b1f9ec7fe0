package benchmarks_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/report"
)

// TestReadableTraces runs the built binary on the programs of
// testdata/readable and checks the text report as a developer reads it
// (issue 12, round 14):
//
//   - every SQL step prints the statement with its bound values, through
//     database/sql, pgx's pool, a sqlx named statement and a statement
//     prepared with db.Prepare;
//   - an inlined helper's result is named as the call site writes it
//     (`validate(bal, amount) = true`, the variable `bal`), never F.ret0;
//   - a line with an if is a branch (or a call, where the condition waits
//     for a call's steps), never an assign;
//   - a SELECT on the pool while a transaction is open says it runs
//     outside that transaction and reads the committed state (adv9 p24);
//   - echo's Bind and gin's ShouldBindJSON fill JSON body fields, named
//     as HTTP inputs, per request in a concurrent counterexample, whose
//     steps list only the values the path reads (adv9 p04: ~150 c.Request
//     fields at c.JSON);
//   - (round 15, testdata/readable/multiline) a statement written over
//     several lines is one step at the line where it starts, printed on
//     one line, its SQL once with its bound values; each branch step
//     gives the outcome the path takes, also where the if's or the
//     case's body is empty; an inlined helper's locals are named as the
//     helper writes them; the position column is aligned within a
//     result; a concurrent result prints its inputs once, on the request
//     lines.
func TestReadableTraces(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	// One run per program set, in JSON; the text report is written from
	// it by the writer the command uses (the concurrent search of a gin
	// handler is the slow one: its own time limit).
	text, reps := readableReports(t, dir, [][]string{
		{"-c", "accounts.balance >= 0", "./helpers", "./sqlxnamed", "./prepared", "./echobind"},
		{"-c", "accounts.balance >= 0", "-c", "credits.available >= 0", "./pgxnative", "./pooltx/...", "./multiline"},
		{"--concurrent", "-c", "accounts.balance >= 0", "./ginbind"},
	})
	results := map[string]*report.Result{}
	for _, rep := range reps {
		for _, r := range rep.Results {
			if r.Verdict == report.Unsafe {
				results[strings.TrimPrefix(r.Entry, "example.com/readable/")+" "+r.Constraint] = r
			}
		}
	}
	all := text
	checkStepLines(t, all)
	checkAligned(t, all)
	checkMultiline(t, readableBlock(all, "multiline.Withdraw"), readableBlock(all, "multiline.Deposit"))
	if b := readableBlock(all, "ginbind.(*Handler).withdraw"); strings.Contains(b, "  inputs:") {
		t.Errorf("ginbind: the requests' inputs printed again on an inputs line:\n%s", b)
	}
	block := func(entry string) string { return readableBlock(all, entry) }
	n := `\(?-?\d+\)?` // a bound number, in parentheses where negative
	for _, tt := range []struct{ entry, want string }{
		{"pgxnative.Withdraw", `pgxnative\.go:15 +sql +UPDATE accounts SET balance = balance - ` + n + ` WHERE id = ` + n + ` `},
		{"sqlxnamed.Withdraw", `sqlxnamed\.go:19 +sql +UPDATE accounts SET balance = balance - ` + n + ` WHERE id = ` + n + ` `},
		{"prepared.Withdraw", `prepared\.go:20 +sql +UPDATE accounts SET balance = balance - ` + n + ` WHERE id = ` + n + ` `},
		{"helpers.Withdraw", `helpers\.go:13 +return .*⇒ .*validate\(bal, amount\) = true`},
		{"helpers.Withdraw", `helpers\.go:19 +return +return bal, err +⇒ bal = ` + n},
		{"helpers.Withdraw", `helpers\.go:28 +call +if !validate\(bal, amount\) \{\n`},
		{"helpers.Withdraw", `helpers\.go:28 +branch +if !validate\(bal, amount\) \{ +→ false`},
		{"pooltx.(*Billing).Consume", `store\.go:39 +sql +SELECT available FROM credits WHERE customer_id = ` + n + ` .*\n +note +runs on the pool, outside the transaction begun at pooltx/billing\.go:26: it reads the committed state`},
		{"echobind.(*Handler).withdraw", `inputs: +JSON body field "account_id" = ` + n + ` \(req\.AccountID\), JSON body field "amount" = ` + n + ` \(req\.Amount\)`},
		{"ginbind.(*Handler).withdraw", `request A: \S+\(JSON body field "account_id" = ` + n + ` \(A\.req\.AccountID\), JSON body field "amount" = ` + n + ` \(A\.req\.Amount\)\)`},
		{"ginbind.(*Handler).withdraw", `A1 ginbind/ginbind\.go:33 SELECT balance FROM accounts WHERE id = ` + n + `\n`},
	} {
		if b := block(tt.entry); !regexp.MustCompile(tt.want).MatchString(b) {
			t.Errorf("%s: no line matches %s in:\n%s", tt.entry, tt.want, b)
		}
	}
	if b := block("pgxnative.Withdraw"); strings.Contains(b, "note") {
		t.Errorf("pgxnative.Withdraw: a note without a transaction:\n%s", b)
	}
	for key, r := range results {
		for _, s := range r.Counterexample.Steps {
			if s.Kind == "sql" && strings.ContainsAny(s.Text, "?$:") && !strings.HasPrefix(s.Text, "stmt,") && (s.SQL == "" || len(s.Args) == 0) {
				t.Errorf("%s: %s %q has no bound values in the JSON report", key, s.Position, s.Text)
			}
		}
	}
}

// readableReports runs the built binary in dir once per args (check
// --no-cache --format json added), each run UNSAFE (exit 1), and returns
// the reports and their text as the command writes it.
func readableReports(t *testing.T, dir string, runs [][]string) (string, []*report.Report) {
	t.Helper()
	var out strings.Builder
	var reps []*report.Report
	for _, args := range runs {
		args = append([]string{"check", "--no-cache", "--format", "json"}, args...)
		js := harness.Exec(context.Background(), binary(t), dir, args, 5*time.Minute)
		if js.TimedOut || js.Err != nil || js.ExitCode != 1 {
			t.Fatalf("%v: exit %d (%v, timed out: %v), want 1 (UNSAFE)\nstderr:\n%s", args, js.ExitCode, js.Err, js.TimedOut, js.Stderr)
		}
		rep := &report.Report{}
		if err := json.Unmarshal(js.Stdout, rep); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteText(&out, rep, report.Options{}); err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	return out.String(), reps
}

// checkMultiline checks the steps of testdata/readable/multiline, whose
// statements span several lines: one step per statement at its first
// line, shown on one line, the SQL once; no step at a continuation line;
// branch outcomes as the inputs decide them (go/ssa drops an empty body,
// and `case 1:` printed → false with channel = 1); feeOf's locals by
// their Go names.
func checkMultiline(t *testing.T, withdraw, deposit string) {
	t.Helper()
	n := `\(?-?\d+\)?`
	for _, want := range []string{
		`multiline\.go:33 +assign +d := Debit\{Account: account, Amount: amount, Note: "withdrawal"\} +⇒ d\.Account = ` + n,
		`multiline\.go:38 +branch +if premium \{ +→ (true|false)\n`,
		`multiline\.go:45 +sql +SELECT balance FROM accounts WHERE id = ` + n + ` .*\n +\S*multiline\.go:45 +branch +if err := db\.QueryRowContext\(ctx, ` + "`SELECT balance FROM accounts WHERE id = \\$1`" + `, d\.Account\)\.Scan\(&balance\); err != nil \{ +→ false`,
		`multiline\.go:53 +call +_, err := db\.ExecContext\(ctx, .*feeOf\(d\.Amount, premium\), d\.Account\)\n`,
		`multiline\.go:26 +assign +fee := amount \* rate / 100 +⇒ fee = ` + n,
		`multiline\.go:53 +sql +UPDATE accounts SET balance = balance - ` + n + ` WHERE id = ` + n + ` `,
	} {
		if !regexp.MustCompile(want).MatchString(withdraw) {
			t.Errorf("multiline.Withdraw: no line matches %s in:\n%s", want, withdraw)
		}
	}
	if m := regexp.MustCompile(`multiline\.go:(3[4-6]|4[67]|5[456]) `).FindString(withdraw); m != "" {
		t.Errorf("multiline.Withdraw: a step at a continuation line (%s):\n%s", m, withdraw)
	}
	if c := strings.Count(withdraw, "multiline.go:53 sql"); c != 1 {
		t.Errorf("multiline.Withdraw: %d SQL steps for the UPDATE, want 1:\n%s", c, withdraw)
	}
	if strings.Contains(strings.ReplaceAll(withdraw, "feeOf(", ""), "feeOf.") {
		t.Errorf("multiline.Withdraw: feeOf's locals named with its prefix:\n%s", withdraw)
	}
	premium := inputOf(withdraw, "premium")
	if !strings.Contains(withdraw, "if premium {   → "+premium+"\n") {
		t.Errorf("multiline.Withdraw: if premium's outcome is not premium = %s:\n%s", premium, withdraw)
	}
	waived := inputOf(deposit, "waived")
	if !strings.Contains(deposit, "if waived {   → "+waived) {
		t.Errorf("multiline.Deposit: if waived's outcome is not waived = %s:\n%s", waived, deposit)
	}
	want := "case 1:   → false"
	if inputOf(deposit, "channel") == "1" {
		want = "case 1:   → true"
	}
	if !strings.Contains(deposit, want) {
		t.Errorf("multiline.Deposit: want %q (channel = %s):\n%s", want, inputOf(deposit, "channel"), deposit)
	}
}

// inputOf is the value of input name on a result's inputs line.
func inputOf(block, name string) string {
	m := regexp.MustCompile(`\n  inputs: .*\b` + name + ` = ([^,\n]+)`).FindStringSubmatch(block)
	if m == nil {
		return "(not listed)"
	}
	return m[1]
}

// checkAligned checks that within each result the step lines start
// their kind at one column, whatever the lengths of their positions.
func checkAligned(t *testing.T, out string) {
	t.Helper()
	step := regexp.MustCompile(`^    (?:[A-Z] )?\S+:\d+ +(call|branch|sql|assign|return) `)
	col, head := -1, ""
	for _, line := range strings.Split(out, "\n") {
		if line != "" && line[0] != ' ' {
			col, head = -1, line
			continue
		}
		m := step.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		if col >= 0 && m[2] != col {
			t.Errorf("%s: a step's kind at column %d, another's at %d:\n%s", head, m[2], col, line)
		}
		col = m[2]
	}
}

// checkStepLines checks every step line of a text report: no inlined
// function's result name (F.ret0), no if/for/switch line labelled assign,
// no SQL with a placeholder left, no line longer than a reader can take
// in (the c.Request fields gin's c.JSON may change).
func checkStepLines(t *testing.T, out string) {
	t.Helper()
	step := regexp.MustCompile(`^    (?:[A-Z] )?(\S+:\d+) +(\w+) +(.*)$`)
	placeholder := regexp.MustCompile(`(\?|\$\d|:[a-z])`)
	for _, line := range strings.Split(out, "\n") {
		m := step.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := strings.Split(m[3], "   ⇒ ")[0]
		switch {
		case regexp.MustCompile(`\.ret\d+ =`).MatchString(line):
			t.Errorf("%s: an inlined result's internal name: %s", m[1], line)
		case m[2] == "assign" && regexp.MustCompile(`^(if|for|switch|case|return|func)\b`).MatchString(text):
			t.Errorf("%s: labelled assign: %s", m[1], line)
		case m[2] == "sql" && !strings.Contains(text, "db.Prepare(") && placeholder.MatchString(text):
			t.Errorf("%s: SQL without its bound values: %s", m[1], line)
		case len(line) > 400:
			t.Errorf("%s: a step line of %d characters: %.300s…", m[1], len(line), line)
		}
	}
}

// readableBlock is the text report's block of the result of entry (its
// name after example.com/readable/), or "".
func readableBlock(out, entry string) string {
	i := strings.Index(out, " example.com/readable/"+entry+" [")
	if i < 0 {
		return ""
	}
	block := out[i:]
	if j := regexp.MustCompile(`\n\S`).FindStringIndex(block); j != nil {
		block = block[:j[0]]
	}
	return block
}

// blockWant is a pattern a result's block of the text report must match
// (or, absent, must not).
type blockWant struct {
	entry, want string
	absent      bool
}

// checkBlockWants checks each want against the block of its entry (block
// finds it in all, the whole report).
func checkBlockWants(t *testing.T, all string, block func(entry string) string, wants []blockWant) {
	t.Helper()
	for _, tt := range wants {
		b := block(tt.entry)
		if b == "" {
			t.Errorf("%s: no result in:\n%s", tt.entry, all)
			continue
		}
		if found := regexp.MustCompile(tt.want).MatchString(b); found == tt.absent {
			t.Errorf("%s: %s matched %v (want %v) in:\n%s", tt.entry, tt.want, found, !tt.absent, b)
		}
	}
}
