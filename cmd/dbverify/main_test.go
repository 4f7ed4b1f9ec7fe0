package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// TestGolden runs the command in-process on testdata/bank (one SAFE, one
// UNSAFE, one UNKNOWN entry) and testdata/shop (strings, a struct
// literal, a conversion that wraps) and compares what it prints with
// testdata/*.golden; `go test ./cmd/dbverify -update` rewrites them after
// an intended change. Timings and SMT query counts are masked.
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		exit int
	}{
		{"text", []string{"check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"text-verbose", []string{"check", "-C", "testdata/bank", "--no-cache", "-v", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"text-quiet", []string{"check", "-C", "testdata/bank", "--no-cache", "-q", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"github", []string{"check", "-C", "testdata/bank", "--no-cache", "--format", "github", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"json", []string{"check", "-C", "testdata/bank", "--no-cache", "--format", "json", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"sarif", []string{"check", "-C", "testdata/bank", "--no-cache", "--format", "sarif", "--sarif-category", "bank/balance", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"sarif-failure", []string{"check", "-C", "testdata/bank", "--no-cache", "--format", "sarif", "-c", "accounts.balance >= >= 0", "./..."}, exitUsage},
		{"shop-text", []string{"check", "-C", "testdata/shop", "--no-cache", "--jobs", "1", "--dialect", "sqlite", "--schema", "schema.sql", "-c", "wallets.balance >= 0", "-c", "payments.captured <= payments.authorized", "./..."}, exitUnsafe},
		{"shop-json", []string{"check", "-C", "testdata/shop", "--no-cache", "--jobs", "1", "--dialect", "sqlite", "--schema", "schema.sql", "--format", "json", "-c", "wallets.balance >= 0", "-c", "payments.captured <= payments.authorized", "./..."}, exitUnsafe},
		{"fail-on-unknown-safe-only", []string{"check", "-C", "testdata/bank", "--no-cache", "--fail-on-unknown", "--entry", "Deposit|Adjust", "-c", "accounts.balance >= 0", "./..."}, exitUnknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"dbverify"}, tt.args...), &out, &errOut)
			if code != tt.exit {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", code, tt.exit, errOut.String())
			}
			got := mask(out.Bytes())
			file := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/dbverify -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (go test ./cmd/dbverify -update rewrites it):\n--- got\n%s\n--- want\n%s", file, got, want)
			}
		})
	}
}

// What changes from run to run, masked in the golden files: timings,
// SMT query and restart counts (text and JSON), the absolute repository root and the
// tool's version (SARIF).
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\(\d+ SMT queries(, \d+ restarted after a time-out)?, [0-9.]+s\)`), "(N SMT queries, T s)"},
	{regexp.MustCompile(`"(seconds|frontend_seconds)": [0-9.e+-]+`), `"$1": T`},
	{regexp.MustCompile(`"(smt_queries|solver_restarts)": \d+`), `"$1": N`},
	{regexp.MustCompile(`"uri": "file://[^"]*"`), `"uri": "file://ROOT/"`},
	{regexp.MustCompile(`"version": "[0-9.]+\+[^"]*"`), `"version": "VERSION"`},
}

func mask(b []byte) []byte {
	for _, m := range masks {
		b = m.re.ReplaceAll(b, []byte(m.with))
	}
	return b
}

// TestConfig checks that a configuration file sets the flags it names
// (here the constraint, --entry and --fail-on-unknown: exit 3), that the
// command line overrides it, and that a misspelt setting is an error with
// its line.
func TestConfig(t *testing.T) {
	var out, errOut bytes.Buffer
	base := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "-q", "--config", "testdata/bank.dbverify.yaml"}
	if code := run(append(base, "./..."), &out, &errOut); code != exitUnknown {
		t.Errorf("exit code %d, want %d (fail-on-unknown from the file)\n%s%s", code, exitUnknown, out.String(), errOut.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("UNKNOWN example.com/bank.Adjust")) || bytes.Contains(out.Bytes(), []byte("UNSAFE example.com/bank.Withdraw")) {
		t.Errorf("the file's entry and constraint were not used:\n%s", out.String())
	}
	out.Reset()
	if code := run(append(base, "--entry", "Withdraw", "./..."), &out, &errOut); code != exitUnsafe {
		t.Errorf("exit code %d with --entry Withdraw on the command line, want %d\n%s", code, exitUnsafe, out.String())
	}
	errOut.Reset()
	if code := run([]string{"dbverify", "check", "-C", "testdata/bank", "--config", "testdata/typo.dbverify.yaml", "./..."}, &out, &errOut); code != exitUsage ||
		!bytes.Contains(errOut.Bytes(), []byte(`typo.dbverify.yaml:2: unknown setting "fail-on-unkown"`)) {
		t.Errorf("exit code %d, stderr %q; want 2 and the misspelt setting with its line", code, errOut.String())
	}
}

// TestBaseline checks that findings already in a --baseline report do not
// fail the run, and that a finding not in it still does.
func TestBaseline(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "--format", "json", "-c", "accounts.balance >= 0"}
	if code := run(append(args, "--entry", "Withdraw", "./..."), &out, &errOut); code != exitUnsafe {
		t.Fatalf("exit code %d, want %d\n%s", code, exitUnsafe, errOut.String())
	}
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(baseline, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(append(args, "--fail-on-unknown", "--baseline", baseline, "--entry", "Withdraw", "./..."), &out, &errOut); code != exitSafe ||
		!bytes.Contains(out.Bytes(), []byte(`"in_baseline": true`)) {
		t.Errorf("exit code %d, want 0: the only finding is in the baseline\n%s", code, out.String())
	}
	// SARIF and GitHub annotations: the accepted finding is suppressed
	// (external, the baseline), not a plain alert (adv19).
	out.Reset()
	sarif := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "--baseline", baseline, "--entry", "Withdraw"}
	if code := run(append(sarif, "--format", "sarif", "./..."), &out, &errOut); code != exitSafe ||
		!regexp.MustCompile(`"suppressions": \[\s*\{\s*"kind": "external",\s*"justification": "accepted in the baseline`).Match(out.Bytes()) {
		t.Errorf("SARIF with the baseline: exit code %d, want 0 and the finding suppressed as external\n%s", code, out.String())
	}
	out.Reset()
	if code := run(append(sarif, "--format", "github", "./..."), &out, &errOut); code != exitSafe || strings.Contains(out.String(), "::error") {
		t.Errorf("GitHub annotations with the baseline: exit code %d, want 0 and no ::error\n%s", code, out.String())
	}
	out.Reset()
	if code := run(append(args, "--fail-on-unknown", "--baseline", baseline, "./..."), &out, &errOut); code != exitUnknown {
		t.Errorf("exit code %d, want %d: Adjust's UNKNOWN is new\n%s", code, exitUnknown, out.String())
	}
	// -q counts the accepted findings; -q -v names them, one line each
	// (adv17: "2 in the baseline" named none).
	text := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "--baseline", baseline, "--entry", "Withdraw", "-q"}
	line := regexp.MustCompile(`(?m)^bank\.go:\d+: UNSAFE example\.com/bank\.Withdraw \[accounts\.balance >= 0\] \(in the baseline\)$`)
	for _, verbose := range []bool{false, true} {
		out.Reset()
		args := text
		if verbose {
			args = append(args[:len(args):len(args)], "-v")
		}
		run(append(args, "./..."), &out, &errOut)
		if line.MatchString(out.String()) != verbose || !strings.Contains(out.String(), "1 in the baseline") {
			t.Errorf("-q, -v %t: the accepted finding named %t, want %t, and counted:\n%s", verbose, !verbose, verbose, out.String())
		}
	}
}

// TestFlagsAfterPackages: a flag written after the packages would be read
// as a package pattern; it is a usage error that says where flags go.
func TestFlagsAfterPackages(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"dbverify", "check", "-C", "testdata/bank", "./...", "-c", "accounts.balance >= 0"}, &out, &errOut)
	if code != exitUsage || !bytes.Contains(errOut.Bytes(), []byte("flag -c after the packages: flags come first")) {
		t.Errorf("exit code %d, stderr %q; want 2 and where flags go", code, errOut.String())
	}
}

// TestInterrupted: an interrupted run (its context cancelled) still
// prints its report, the undecided results UNKNOWN "cancelled", and exits
// 2 so that a gate does not pass on it.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := runContext(ctx, []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "./..."}, &out, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("exit code %d, stderr %q; want 2 and \"interrupted\"", code, errOut.String())
	}
	if n := strings.Count(out.String(), "reason: cancelled"); n != 3 {
		t.Errorf("%d results cancelled, want the bank's 3:\n%s", n, out.String())
	}
}

// TestFormatFlag: --format takes the names of the writer table; another
// is a usage error that lists them, and the help lists them too.
func TestFormatFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"dbverify", "check", "-C", "testdata/bank", "--format", "xml", "-c", "accounts.balance >= 0", "./..."}, &out, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), `unknown format "xml" (want text, json, sarif or github)`) || out.Len() != 0 {
		t.Errorf("exit code %d, stdout %q, stderr %q; want 2, nothing on stdout, and the formats", code, out.String(), errOut.String())
	}
	out.Reset()
	run([]string{"dbverify", "check", "--help"}, &out, &errOut)
	if !strings.Contains(out.String(), "output format: text, json, sarif (GitHub code scanning) or github (workflow-command annotations)") {
		t.Errorf("check --help does not list the formats:\n%s", out.String())
	}
}

// TestConcurrentTraceText checks the text of a counterexample of two
// requests (testdata/shop's Redeem, which reads a coupon, checks it and
// writes it back in a transaction with a deferred Rollback): the string
// argument prints as a string in the requests and the steps, and as
// SQL quotes it in the schedule's statements, which show their bound
// values; the literal Coupon{Code: code} shows Uses and MaxUses at 0
// where it is built; the Rollback deferred after the COMMIT restores
// nothing, lists no row and says it is a no-op (a bare ROLLBACK after
// the COMMIT read as if the transaction had rolled back); the inputs are printed once, labelled by
// their request. (The values the solver picks vary from run
// to run: no golden file.)
func TestConcurrentTraceText(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"dbverify", "check", "-C", "testdata/shop", "--no-cache", "--dialect", "mysql", "--concurrent", "--schema", "schema.sql", "--entry", "Redeem", "-c", "coupons.uses <= coupons.max_uses", "./..."}
	if code := run(args, &out, &errOut); code != exitUnsafe {
		t.Fatalf("exit code %d, want %d\n%s", code, exitUnsafe, errOut.String())
	}
	text := out.String()
	// A quoted string: under MySQL's default collation the two requests'
	// codes may be two spellings of one key ("-524288 " and "-524288").
	str := `"[^"\n]*"`
	for _, re := range []string{
		`request A: example.com/shop.Redeem\(code = ` + str + `\)`,
		`B\d shop.go:61 SELECT uses, max_uses FROM coupons WHERE code = '[^'\n]*'\n`, // (bound: the string as SQL quotes it)
		`A shop.go:60 +assign c := Coupon\{Code: code\} +⇒ A.c.Code = ` + str + `, A.c.MaxUses = 0, A.c.Uses = 0\n`,
		`A shop.go:59 +sql +\(deferred Rollback after Commit: no-op\)\n`,
		`request B: example.com/shop.Redeem\(code = ` + str + `\)`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("output does not match %s:\n%s", re, text)
		}
	}
	// The inputs are printed once, each on its request's line (issue 12,
	// round 15: an inputs line listed them again, A.code = …, B.code = …).
	if strings.Contains(text, "  inputs:") {
		t.Errorf("the requests' inputs printed twice:\n%s", text)
	}
}

// TestBaselineWorkLimit: a work-limit UNKNOWN accepted in a baseline is
// the same finding on the next run with other limit figures (adv18: the
// reason names the figures, and the baseline reported it as new); a
// SARIF log fingerprints it the same way too.
func TestBaselineWorkLimit(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "--entry", "Deposit", "--fail-on-unknown"}
	if code := run(append(args, "--rlimit", "1", "--format", "json", "./..."), &out, &errOut); code != exitUnknown ||
		!bytes.Contains(out.Bytes(), []byte(`"limit": "work"`)) {
		t.Fatalf("exit code %d, want %d and a work-limit UNKNOWN\n%s%s", code, exitUnknown, out.String(), errOut.String())
	}
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(baseline, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(append(args, "--rlimit", "2", "--baseline", baseline, "--format", "json", "./..."), &out, &errOut); code != exitSafe ||
		!bytes.Contains(out.Bytes(), []byte(`"in_baseline": true`)) {
		t.Errorf("exit code %d, want 0: the work-limit UNKNOWN is in the baseline under other figures\n%s", code, out.String())
	}
	var fingerprints []string
	for _, rlimit := range []string{"1", "2"} {
		out.Reset()
		run(append(args, "--rlimit", rlimit, "--format", "sarif", "./..."), &out, &errOut)
		fingerprints = append(fingerprints, regexp.MustCompile(`"dbverify/v1": "[0-9a-f]+"`).FindString(out.String()))
	}
	if fingerprints[0] == "" || fingerprints[0] != fingerprints[1] {
		t.Errorf("SARIF fingerprints under --rlimit 1 and 2: %q, want one", fingerprints)
	}
}

// TestEntrySelection: --entry matches a function's or method's name, a
// Type.Method, or a package-qualified name, as the README says; a match
// inside the receiver's type name alone (Transfer in
// TransferRequest.GetAmount) does not select the method (adv18: --entry
// Transfer also selected the four getters of *TransferRequest), while a
// pattern that names the type with its dot (TransferRequest\.) selects
// its methods.
func TestEntrySelection(t *testing.T) {
	const pkg = "example.com/entrysel."
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		{`Transfer`, []string{"Transfer", "(*Ledger).Transfer"}},
		{`^Transfer$`, []string{"Transfer", "(*Ledger).Transfer"}},
		{`Ledger\.Transfer`, []string{"(*Ledger).Transfer"}},
		{`entrysel\.Transfer`, []string{"Transfer"}},
		{`TransferRequest\.GetAmount`, []string{"(*TransferRequest).GetAmount"}},
		{`GetAmount`, []string{"(*TransferRequest).GetAmount"}},
		{`TransferRequest\.`, []string{"(*TransferRequest).GetAmount", "(*TransferRequest).GetFrom"}},
		{`Request`, nil},
	} {
		var out, errOut bytes.Buffer
		run([]string{"dbverify", "check", "-C", "testdata/entrysel", "--no-cache", "--format", "json", "-c", "accounts.balance >= 0", "--entry", tt.pattern, "./..."}, &out, &errOut)
		var rep report.Report
		if tt.want != nil {
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("--entry %s: %v\n%s%s", tt.pattern, err, out.String(), errOut.String())
			}
		}
		var got []string
		for _, r := range rep.Results {
			got = append(got, strings.TrimPrefix(r.Entry, pkg))
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tt.want))
		if !slices.Equal(got, want) {
			t.Errorf("--entry %s selects %q, want %q\n%s", tt.pattern, got, want, errOut.String())
		}
	}
}

// cancelAtLast is the stderr of a run with --progress that cancels the
// run when its last result is reported ([n/n]).
type cancelAtLast struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelAtLast) Write(p []byte) (int, error) {
	if m := regexp.MustCompile(`^\[(\d+)/(\d+)\]`).FindSubmatch(p); m != nil && string(m[1]) == string(m[2]) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// TestInterruptedAfterDecided: an interrupt once every result is decided
// (adv18: SIGINT while the run re-checked an UNSAFE under the run's other
// constraints exited 2 "interrupted" with a complete report) exits with
// the verdicts' code, and the re-checks are announced as they run; the
// report still holds Withdraw's UNSAFE.
func TestInterruptedAfterDecided(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	errOut := &cancelAtLast{cancel: cancel}
	code := runContext(ctx, []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "--progress",
		"-c", "accounts.balance >= 0", "-c", "accounts.id >= 0", "./..."}, &out, errOut)
	if code != exitUnsafe || strings.Contains(errOut.String(), "interrupted:") {
		t.Errorf("exit code %d, want %d (the verdicts' code: every result was decided)\n%s", code, exitUnsafe, errOut.String())
	}
	for _, want := range []string{"re-checking 1 UNSAFE or UNKNOWN result(s)", "example.com/bank.Withdraw (accounts.balance >= 0)", "the report is complete"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "UNSAFE example.com/bank.Withdraw [accounts.balance >= 0]") {
		t.Errorf("Withdraw's UNSAFE is not reported:\n%s", out.String())
	}
}
