package benchmarks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// binEnv names the environment variable through which TestMain hands the
// binary it built to the tests. Set it before `go test` to test a
// prebuilt binary instead.
const binEnv = "DBVERIFY_E2E_BIN"

// caseTimeout bounds one dbverify run: a "fast" case takes seconds, so a
// run this long has hung (and fails).
const caseTimeout = time.Minute

// TestMain builds cmd/dbverify once into a temporary directory.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if os.Getenv(binEnv) != "" {
		return m.Run()
	}
	root, err := harness.ModuleRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "dbverify-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin, err := harness.BuildBinary(root, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if err := os.Setenv(binEnv, bin); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// recordInputs opens every source, module, SQL and expect.json file of
// the module (the corpus and testdata included). The binary under test is
// built from them and reads them in another process, which `go test`
// cannot see; opening them here puts them into the test's recorded inputs,
// so that a cached result is reused only while they are unchanged.
func recordInputs(t *testing.T) {
	t.Helper()
	root, err := harness.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".mod", ".sum", ".sql", ".json":
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			return f.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// binary returns the dbverify binary TestMain built.
func binary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Fatalf("%s is not set: TestMain did not build dbverify", binEnv)
	}
	return bin
}

// dbverify runs the binary in dir and fails the test if it cannot be run
// or times out.
func dbverify(t *testing.T, dir string, args ...string) *harness.Invocation {
	t.Helper()
	inv := harness.Exec(context.Background(), binary(t), dir, args, caseTimeout)
	if inv.TimedOut {
		t.Fatalf("dbverify %s timed out after %s", strings.Join(args, " "), caseTimeout)
	}
	if inv.Err != nil {
		t.Fatalf("dbverify %s: %v\nstderr:\n%s", strings.Join(args, " "), inv.Err, inv.Stderr)
	}
	return inv
}

func corpusDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("corpus")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func badDir(t *testing.T, sub string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "bad", sub))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkCase runs a case and asserts every expectation of its expect.json.
// It returns the parsed report.
func checkCase(t *testing.T, c *harness.Case) *harness.Report {
	t.Helper()
	return checkCaseWith(t, c, "")
}

// checkCaseWith is checkCase with --engine engine ("" = the default).
func checkCaseWith(t *testing.T, c *harness.Case, engine string) *harness.Report {
	t.Helper()
	args := harness.CheckArgs(c, harness.Options{Engine: engine})
	inv := dbverify(t, c.Dir, args...)
	if inv.ExitCode != 0 && inv.ExitCode != 1 {
		t.Fatalf("exit code %d, want 0 or 1\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	rep, err := harness.ParseReport(inv.Stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, inv.Stdout, inv.Stderr)
	}
	byKey := map[harness.Key][]*harness.Result{}
	allSafe := true
	for i := range rep.Results {
		r := &rep.Results[i]
		k := harness.KeyOf(r.Entry, r.Constraint)
		byKey[k] = append(byKey[k], r)
		if r.Verdict != harness.Safe {
			allSafe = false
		}
	}
	expected := map[harness.Key]bool{}
	for _, e := range c.Expect {
		k := harness.KeyOf(e.Entry, e.Constraint)
		expected[k] = true
		rs := byKey[k]
		if len(rs) != 1 {
			t.Errorf("%s / %s: %d results, want 1", e.Entry, e.Constraint, len(rs))
			continue
		}
		r := rs[0]
		if engine != "" && r.Verdict != e.Verdict {
			// A baseline engine may decide less than the default, never
			// differently: its SAFE or UNSAFE must be the right answer.
			want := e.Verdict
			if want == harness.Unknown {
				want = e.FinalVerdict()
			}
			switch {
			case r.Verdict == harness.Unknown:
				t.Logf("%s / %s: UNKNOWN with --engine %s (%s), where the default engine says %s", e.Entry, e.Constraint, engine, r.Reason, e.Verdict)
				continue
			case r.Verdict != want:
				t.Errorf("%s / %s: --engine %s says %s, the default engine %s (final %s): the engines disagree", e.Entry, e.Constraint, engine, r.Verdict, e.Verdict, e.FinalVerdict())
				continue
			}
		} else if r.Verdict != e.Verdict {
			t.Errorf("%s / %s: verdict %s, want %s (reason %q; expect.json: %s)", e.Entry, e.Constraint, r.Verdict, e.Verdict, r.Reason, e.Why)
			continue
		}
		switch r.Verdict {
		case harness.Unsafe:
			if inv.ExitCode != 1 {
				t.Errorf("%s / %s is UNSAFE but the exit code is %d, want 1", e.Entry, e.Constraint, inv.ExitCode)
			}
			checkCounterexample(t, e, r)
		case harness.Safe:
			if r.Proof != "" && len(r.Predicates) == 0 {
				break // decided exactly by one formula: no predicates to check
			}
			for _, sub := range e.PredicatesContain {
				found := false
				for _, p := range r.Predicates {
					if strings.Contains(p, sub) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s / %s: no predicate contains %q; predicates %q", e.Entry, e.Constraint, sub, r.Predicates)
				}
			}
		}
	}
	for k, rs := range byKey {
		if !expected[k] {
			t.Errorf("unexpected result for %s / %s (%s): not in expect.json", rs[0].Entry, rs[0].Constraint, rs[0].Verdict)
		}
	}
	if allSafe && inv.ExitCode != 0 {
		t.Errorf("every result is SAFE but the exit code is %d, want 0\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	return rep
}

func checkCounterexample(t *testing.T, e harness.Expectation, r *harness.Result) {
	t.Helper()
	what := e.Entry + " / " + e.Constraint
	cex, err := r.Cex()
	if err != nil {
		t.Errorf("%s: counterexample: %v", what, err)
		return
	}
	if cex == nil {
		t.Errorf("%s: UNSAFE without a counterexample", what)
		return
	}
	if len(cex.Inputs) == 0 && len(cex.Rows) == 0 {
		// (An HTTP handler's values come from calls, shown in its steps.)
		t.Errorf("%s: counterexample has neither inputs nor initial rows", what)
	}
	if len(cex.Steps) == 0 {
		t.Errorf("%s: counterexample has no steps", what)
	}
	if cex.Violation == nil || cex.Violation.Table == "" || len(cex.Violation.Values) == 0 {
		t.Errorf("%s: counterexample has no violation row: %+v", what, cex.Violation)
	}
	texts := r.CexText()
	for _, sub := range e.TraceContains {
		found := false
		for _, text := range texts {
			if strings.Contains(text, sub) {
				found = true
				break
			}
		}
		if !found {
			var compact bytes.Buffer
			if json.Compact(&compact, r.Counterexample) != nil {
				compact.Write(r.Counterexample)
			}
			t.Errorf("%s: counterexample does not contain %q: %s", what, sub, compact.Bytes())
		}
	}
}

// TestCorpusFast checks every corpus case marked "fast": true.
func TestCorpusFast(t *testing.T) {
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !c.Fast {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) { checkCase(t, c) })
	}
	if n == 0 {
		t.Fatal("no fast case in the corpus")
	}
}

// TestCorpusCoreFixpoint checks the core corpus cases (the seed paper's
// examples, loops included) with --engine fixpoint, the per-statement
// engine kept as a baseline: every verdict it decides must be the
// expected one (it may leave more UNKNOWN than the default lbe engine),
// so the two engines never disagree on a decided verdict. (The whole
// corpus is compared by `go run ./benchmarks/cmd/bench -compare
// fixpoint`; here the subset keeps `go test` within its time limit.)
func TestCorpusCoreFixpoint(t *testing.T) {
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !c.Fast || !strings.HasPrefix(c.Name, "core/") {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) { checkCaseWith(t, c, harness.EngineFixpoint) })
	}
	if n == 0 {
		t.Fatal("no fast core case in the corpus")
	}
}

// lineOf returns the 1-based line of the first line of file containing sub.
func lineOf(t *testing.T, file, sub string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, sub)
	return 0
}

func wantUsageError(t *testing.T, inv *harness.Invocation) string {
	t.Helper()
	if inv.ExitCode != 2 {
		t.Fatalf("exit code %d, want 2\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
	}
	msg := string(inv.Stderr)
	if strings.TrimSpace(msg) == "" {
		t.Fatal("exit code 2 without a message on stderr")
	}
	return msg
}

// TestBadInput checks that bad programs and bad command lines are usage
// errors (exit 2) with a message that says where the problem is.
func TestBadInput(t *testing.T) {
	recordInputs(t)
	t.Run("package does not compile", func(t *testing.T) {
		dir := badDir(t, "nocompile")
		line := lineOf(t, filepath.Join(dir, "nocompile.go"), `"ten thousand"`)
		msg := wantUsageError(t, dbverify(t, dir, "check", "--format", "json", "--constraint", "accounts.balance >= 0", "./..."))
		if !regexp.MustCompile(`nocompile\.go:` + strconv.Itoa(line) + `\b`).MatchString(msg) {
			t.Errorf("message does not name nocompile.go:%d:\n%s", line, msg)
		}
	})
	t.Run("SQL does not parse", func(t *testing.T) {
		dir := badDir(t, "badsql")
		line := lineOf(t, filepath.Join(dir, "badsql.go"), "UPDATE accounts SET balance = WHERE")
		msg := wantUsageError(t, dbverify(t, dir, "check", "--format", "json", "--constraint", "accounts.balance >= 0", "./..."))
		if !regexp.MustCompile(`badsql\.go:` + strconv.Itoa(line) + `\b`).MatchString(msg) {
			t.Errorf("message does not name badsql.go:%d:\n%s", line, msg)
		}
		if !regexp.MustCompile(`(?i)\bSQL\b`).MatchString(msg) || !regexp.MustCompile(`(?i)pars|syntax`).MatchString(msg) {
			t.Errorf("message does not say the SQL does not parse:\n%s", msg)
		}
	})
	t.Run("malformed constraint", func(t *testing.T) {
		const constraint = "accounts.balance >="
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "json", "--constraint", constraint, "./..."))
		m := regexp.MustCompile(`(?i)(?:column|col|position|pos|offset)\s*:?\s*(\d+)`).FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("message gives no column of the error in %q:\n%s", constraint, msg)
		}
		if col, _ := strconv.Atoi(m[1]); col < 1 || col > len(constraint)+1 {
			t.Errorf("column %d is outside %q (1..%d):\n%s", col, constraint, len(constraint)+1, msg)
		}
	})
	t.Run("constraint on a table the program does not use", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "json", "--constraint", "acounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "acounts") || !strings.Contains(msg, "accounts") {
			t.Errorf("message does not name the unknown table and the tables used:\n%s", msg)
		}
	})
	t.Run("unknown format", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "yaml", "--constraint", "accounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "format") {
			t.Errorf("message does not mention the format:\n%s", msg)
		}
	})
}

// TestSARIF checks that --format sarif is SARIF 2.1.0 JSON with one error
// result per UNSAFE verdict of the same run in JSON.
func TestSARIF(t *testing.T) {
	recordInputs(t)
	dir := badDir(t, "good")
	c, err := harness.ReadCase(dir, "testdata/bad/good")
	if err != nil {
		t.Fatal(err)
	}
	rep := checkCase(t, c)
	unsafe := 0
	for _, r := range rep.Results {
		if r.Verdict == harness.Unsafe {
			unsafe++
		}
	}
	if unsafe == 0 {
		t.Fatal("no UNSAFE result to report in SARIF")
	}
	args := append([]string{"check", "--format", "sarif"}, c.Args...)
	inv := dbverify(t, dir, append(args, "./...")...)
	if inv.ExitCode != 1 {
		t.Errorf("exit code %d with an UNSAFE result, want 1\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string                `json:"ruleId"`
				Level     string                `json:"level"`
				Message   struct{ Text string } `json:"message"`
				Locations []json.RawMessage     `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(inv.Stdout, &log); err != nil {
		t.Fatalf("SARIF output is not JSON: %v\n%s", err, inv.Stdout)
	}
	if log.Version != "2.1.0" {
		t.Errorf("SARIF version %q, want 2.1.0", log.Version)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d SARIF runs, want 1", len(log.Runs))
	}
	errors := 0
	for _, r := range log.Runs[0].Results {
		if r.Level == "error" {
			errors++
			if r.RuleID == "" || r.Message.Text == "" || len(r.Locations) == 0 {
				t.Errorf("SARIF error result lacks a rule, message or location: %+v", r)
			}
		}
	}
	if errors != unsafe {
		t.Errorf("%d SARIF error results, want one per UNSAFE verdict (%d)\n%s", errors, unsafe, inv.Stdout)
	}
}

// TestFailOnUnknown checks that --fail-on-unknown turns an UNKNOWN verdict
// into exit code 3, on a corpus case whose expect.json says UNKNOWN.
func TestFailOnUnknown(t *testing.T) {
	recordInputs(t)
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), "bank", "retry_recursive_safe"), "bank/retry_recursive_safe")
	if err != nil {
		t.Fatal(err)
	}
	unknown := false
	for _, e := range c.Expect {
		if e.Verdict == harness.Unsafe {
			t.Fatalf("%s expects an UNSAFE verdict; it cannot test --fail-on-unknown", c.Name)
		}
		unknown = unknown || e.Verdict == harness.Unknown
	}
	if !unknown {
		t.Fatalf("%s expects no UNKNOWN verdict", c.Name)
	}
	args := harness.CheckArgs(c, harness.Options{ExtraArgs: []string{"--fail-on-unknown"}})
	inv := dbverify(t, c.Dir, args...)
	if inv.ExitCode != 3 {
		t.Errorf("exit code %d with --fail-on-unknown, want 3\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
	}
	rep, err := harness.ParseReport(inv.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rep.Results {
		if r.Verdict == harness.Unknown {
			found = true
			if r.Reason == "" {
				t.Errorf("%s / %s is UNKNOWN without a reason", r.Entry, r.Constraint)
			}
		}
	}
	if !found {
		t.Errorf("no UNKNOWN result in the output:\n%s", inv.Stdout)
	}
}
